import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { TicketsWorkspace } from "./tickets/TicketsWorkspace.tsx";

export type TicketsPageProps = {
  /** The uuid of /tickets/{uuid} (seeds/000 section 2: the optional route parameter ticketId). */
  ticketId: string | null;
};

/** /tickets and /tickets/{uuid}: the attendants' workspace, inside the shell. */
export default function TicketsPage({ ticketId }: TicketsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("tickets.title")} layout="full">
      <TicketsWorkspace initialUuid={ticketId} />
    </AppShell>
  );
}
