import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useUser } from "../lib/session.ts";
import { Select } from "../lib/ui/Select.tsx";

const NONE = "none";

export type QueueBotsValue = { integrationId: number | null; promptId: number | null };

/**
 * The queue's bot (seeds/001 section 7: GET /queueIntegration and /prompt from the queue
 * dialog): an integration or an AI prompt answers a ticket once it enters the queue. Each choice
 * shows only when the company's plan has the feature.
 */
export function QueueBots(
  { open, value, onChange }: {
    open: boolean;
    value: QueueBotsValue;
    onChange: (value: QueueBotsValue) => void;
  },
) {
  const { t } = useTranslation();
  const plan = useUser().company.plan;
  const [integrations, setIntegrations] = useState<{ id: number; name: string }[]>([]);
  const [prompts, setPrompts] = useState<{ id: number; name: string }[]>([]);
  useEffect(() => {
    if (!open) return;
    if (plan?.useIntegrations) {
      api.get<{ queueIntegrations: { id: number; name: string }[] }>("/queueIntegration", {
        quiet: true,
      }).then((a) => setIntegrations(a.queueIntegrations)).catch(() => {});
    }
    if (plan?.useOpenAi) {
      api.get<{ prompts: { id: number; name: string }[] }>("/prompt", { quiet: true })
        .then((a) => setPrompts(a.prompts)).catch(() => {});
    }
  }, [open]);
  const options = (rows: { id: number; name: string }[]) => [
    { value: NONE, label: t("queues.fields.noBot") },
    ...rows.map((r) => ({ value: String(r.id), label: r.name })),
  ];
  const id = (v: string) => (v === NONE ? null : Number(v));
  return (
    <div className="row">
      {plan?.useIntegrations
        ? (
          <div className="field">
            <label>{t("queues.fields.integration")}</label>
            <Select
              label={t("queues.fields.integration")}
              value={value.integrationId === null ? NONE : String(value.integrationId)}
              onValueChange={(v) => onChange({ ...value, integrationId: id(v) })}
              options={options(integrations)}
            />
          </div>
        )
        : null}
      {plan?.useOpenAi
        ? (
          <div className="field">
            <label>{t("queues.fields.prompt")}</label>
            <Select
              label={t("queues.fields.prompt")}
              value={value.promptId === null ? NONE : String(value.promptId)}
              onValueChange={(v) => onChange({ ...value, promptId: id(v) })}
              options={options(prompts)}
            />
          </div>
        )
        : null}
    </div>
  );
}
