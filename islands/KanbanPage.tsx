import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { planGuard } from "./lib/permissions.ts";
import { Board } from "./kanban/Board.tsx";

export type KanbanPageProps = Record<string, never>;

/** The plan's useKanban flag (the API refuses without it too). */
const GUARD = planGuard("useKanban");

/**
 * /kanban (seeds/001 section 2 'Kanban board'). The drag-and-drop library (@dnd-kit/core, with
 * keyboard support) is imported here only: no other page's bundle carries it.
 */
export default function KanbanPage(_props: KanbanPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("kanban.title")} guard={GUARD} layout="full">
      <Board />
    </AppShell>
  );
}
