import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { Button } from "../lib/ui/Button.tsx";
import { TemplateFields, templateKey } from "../lib/ui/TemplateFields.tsx";
import { icon } from "../lib/ui/icon.tsx";
import type { ConversationWindow } from "../../contract/channels.ts";

const Clock = icon("clock");
const SendHorizontal = icon("send-horizontal");

/**
 * The composer past the 24-hour window (issue 45 item 6): says why free text is not allowed and
 * offers the connection's approved templates, their variables filled in (the first one with the
 * contact's name to start with), sent as `{ template: { name, language, parameters } }`.
 */
export function TemplatePicker(
  { ticketId, contactName, window, onSent }: {
    ticketId: number;
    contactName: string;
    window: ConversationWindow;
    onSent: (answer: unknown) => void;
  },
) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string>("");
  const [values, setValues] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const template = window.templates.find((x) => templateKey(x) === chosen) ?? null;

  useEffect(() => {
    if (!template) return;
    setValues(Array.from({ length: template.parameters }, (_, i) => i === 0 ? contactName : ""));
  }, [chosen]);

  const complete = template !== null && values.every((v) => v.trim() !== "");
  const send = async () => {
    if (!template || !complete) return;
    setSending(true);
    try {
      onSent(
        await api.post(`/messages/${ticketId}`, {
          template: {
            name: template.name,
            language: template.language,
            parameters: values.map((v) => v.trim()),
          },
        }),
      );
      setChosen("");
    } catch {
      // Shown by the api client; the choice stays for another try.
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="mi mi-window" data-testid="window-closed">
      <p className="mi-window-why" role="status">
        <Clock size={16} aria-hidden="true" />
        <span>{t("errors.ERR_WHATSAPP_WINDOW_CLOSED")}</span>
      </p>
      {window.templates.length === 0
        ? <p className="mi-window-none">{t("tickets.window.noTemplates")}</p>
        : (
          <div className="mi-window-form">
            <TemplateFields
              templates={window.templates}
              chosen={chosen}
              onChoose={setChosen}
              values={values}
              onValues={setValues}
            />
            {template
              ? (
                <Button
                  variant="primary"
                  onClick={() => void send()}
                  disabled={!complete || sending}
                  data-testid="send-template"
                >
                  <SendHorizontal size={16} aria-hidden="true" />
                  {t("tickets.window.send")}
                </Button>
              )
              : null}
          </div>
        )}
    </div>
  );
}
