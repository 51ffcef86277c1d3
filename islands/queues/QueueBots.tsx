import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useUser } from "../lib/session.ts";
import { SelectField } from "../lib/ui/Select.tsx";

const NONE = "none";

type Named = { id: number; name: string };
type Bot = "integrationId" | "promptId";

/**
 * The queue's bot (seeds/001 section 7: GET /queueIntegration and /prompt from the queue
 * dialog): an integration or an AI prompt answers a ticket once it enters the queue. Each choice
 * shows only when the company's plan has the feature.
 */
export function QueueBots(
  { integrationId, promptId, onChange }: {
    integrationId: number | null;
    promptId: number | null;
    onChange: (bot: Bot, id: number | null) => void;
  },
) {
  const { t } = useTranslation();
  const plan = useUser().company.plan;
  const [integrations, setIntegrations] = useState<Named[]>([]);
  const [prompts, setPrompts] = useState<Named[]>([]);
  useEffect(() => {
    if (plan?.useIntegrations) {
      api.get<{ queueIntegrations: Named[] }>("/queueIntegration", { quiet: true })
        .then((a) => setIntegrations(a.queueIntegrations)).catch(() => {});
    }
    if (plan?.useOpenAi) {
      api.get<{ prompts: Named[] }>("/prompt", { quiet: true })
        .then((a) => setPrompts(a.prompts)).catch(() => {});
    }
  }, []);
  const choice = (bot: Bot, label: string, value: number | null, rows: Named[]) => (
    <SelectField
      label={t(label)}
      value={value === null ? NONE : String(value)}
      onValueChange={(v) => onChange(bot, v === NONE ? null : Number(v))}
      options={[
        { value: NONE, label: t("queues.fields.noBot") },
        ...rows.map((r) => ({ value: String(r.id), label: r.name })),
      ]}
    />
  );
  return (
    <div className="row">
      {plan?.useIntegrations
        ? choice("integrationId", "queues.fields.integration", integrationId, integrations)
        : null}
      {plan?.useOpenAi ? choice("promptId", "queues.fields.prompt", promptId, prompts) : null}
    </div>
  );
}
