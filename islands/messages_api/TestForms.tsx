import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Connection } from "../../contract/connection.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { type ClientAnswer, sendAsClient } from "./client.ts";

/**
 * The two test forms of /messages-api (text; file): they send with a connection's token through
 * the public endpoint, and show the answer (status and JSON) as an outside system gets it. The
 * server never answers a token again once made (issue 35): the field takes the one made on this
 * page for the chosen connection, or one the admin pastes.
 */
export function TestForms(
  { connections, tokens }: { connections: Connection[]; tokens: Record<number, string> },
) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<number | null>(null);
  const connection = connections.find((c) => c.id === chosen) ?? connections[0];
  const [typed, setTyped] = useState<Record<number, string>>({});
  const token = connection ? typed[connection.id] ?? tokens[connection.id] ?? "" : "";
  const [answer, setAnswer] = useState<ClientAnswer | null>(null);

  const run = async (input: { number: string; body: string; file?: File | null }) => {
    if (!token) return;
    try {
      setAnswer(await sendAsClient({ ...input, token: token.trim() }));
    } catch (error) {
      setAnswer({ status: 0, body: String(error) });
    }
  };

  return (
    <section className="card api-card">
      <h2 className="api-card-title">{t("messagesApi.test")}</h2>
      <p className="api-hint">{t("messagesApi.testHint")}</p>
      {connections.length > 0 && (
        <div className="api-test-connection">
          <Select
            label={t("messagesApi.connection")}
            value={connection ? String(connection.id) : undefined}
            onValueChange={(v) => setChosen(Number(v))}
            options={connections.map((c) => ({ value: String(c.id), label: c.name }))}
          />
          <Field
            label={t("messagesApi.token")}
            name="token"
            value={token}
            onChange={(e) =>
              connection && setTyped((old) => ({ ...old, [connection.id]: e.target.value }))}
            placeholder={connection?.tokenHint}
            hint={t("messagesApi.tokenField")}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      )}
      <div className="api-test-forms">
        <SendForm
          title={t("messagesApi.textMessage")}
          testId="api-test-text"
          withFile={false}
          disabled={!token}
          onSend={run}
        />
        <SendForm
          title={t("messagesApi.fileMessage")}
          testId="api-test-file"
          withFile
          disabled={!token}
          onSend={run}
        />
      </div>
      {answer && (
        <pre className="api-code" data-testid="api-result">
          {`HTTP ${answer.status}\n${JSON.stringify(answer.body, null, 2)}`}
        </pre>
      )}
    </section>
  );
}

function SendForm(
  { title, testId, withFile, disabled, onSend }: {
    title: string;
    testId: string;
    withFile: boolean;
    disabled: boolean;
    onSend: (input: { number: string; body: string; file?: File | null }) => Promise<void>;
  },
) {
  const { t } = useTranslation();
  const [number, setNumber] = useState("");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onSend({ number, body, file: withFile ? file : null });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="api-test-form" data-testid={testId} onSubmit={submit}>
      <h3 className="api-sub">{title}</h3>
      <Field
        label={t("messagesApi.number")}
        name="number"
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        placeholder="5513912344321"
        inputMode="tel"
        required
      />
      <TextAreaField
        label={withFile ? t("messagesApi.caption") : t("messagesApi.body")}
        name="body"
        value={body}
        onChange={(e) => setBody(e.target.value)}
        required={!withFile}
      />
      {withFile && (
        <Field
          label={t("messagesApi.file")}
          name="medias"
          type="file"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          required
        />
      )}
      <Button type="submit" variant="primary" loading={busy} disabled={disabled}>
        {t("messagesApi.send")}
      </Button>
    </form>
  );
}
