import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { planGuard } from "./lib/permissions.ts";
import { Board } from "./kanban/Board.tsx";

export type KanbanPageProps = Record<string, never>;

/**
 * /kanban (seeds/001 section 2 'Kanban board'). The drag-and-drop library (@dnd-kit/core, with
 * keyboard support) is imported here only: no other page's bundle carries it.
 */
export default function KanbanPage(_props: KanbanPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("kanban.title")} guard={planGuard("useKanban")} layout="full">
      <Board />
    </AppShell>
  );
}
