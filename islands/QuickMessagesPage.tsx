import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { isAdmin, useUser } from "./lib/session.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import type { QuickMessageView } from "../contract/quick_message_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";
import "./lib/ui/form_styles.ts";

const QuickMessageDialog = whenOpen(() =>
  import("./quick_messages/QuickMessageDialog.tsx").then((m) => m.QuickMessageDialog)
);

export type QuickMessagesPageProps = Record<string, never>;

const OPEN_ADD = "quick-messages:add";

/** /quick-messages (seeds/001 section 2 'Quick messages'): shortcode, attachment, actions. */
export default function QuickMessagesPage(_props: QuickMessagesPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("quickMessages.title")}
      actions={<AddButton event={OPEN_ADD} label={t("quickMessages.add")} />}
    >
      <QuickMessages />
    </AppShell>
  );
}

const byShortcode = (a: QuickMessageView, b: QuickMessageView) =>
  a.shortcode.localeCompare(b.shortcode, undefined, { sensitivity: "base" }) || a.id - b.id;

/** GET /api/quick-messages pages (`records`), live on company-<id>-quickMessage. */
const QUICK_MESSAGES = {
  path: "/quick-messages",
  records: "records",
  channel: "quickMessage" as const,
  sort: byShortcode,
};

function QuickMessages() {
  const { t } = useTranslation();
  const me = useUser();
  const admin = isAdmin(me);
  const list = useResourceList<QuickMessageView>(QUICK_MESSAGES);
  const dialogs = useRecordDialogs<QuickMessageView>();
  useWindowEvent(OPEN_ADD, dialogs.add);

  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("quickMessages.search")} testId="quick-search" />
      <ResourceTable
        list={list}
        testId="quick-list"
        empty={t("quickMessages.empty")}
        head={
          <>
            <th>{t("quickMessages.shortcode")}</th>
            <th className="col-hide-sm">{t("quickMessages.message")}</th>
            <th>{t("quickMessages.attachment")}</th>
            <th className="col-actions">{t("quickMessages.actions")}</th>
          </>
        }
      >
        {list.items.map((q) => {
          const mine = admin || q.userId === me.id;
          return (
            <tr key={q.id} data-testid="quick-row" data-quick-id={q.id}>
              <td className="people-name">
                {q.shortcode}
                {q.geral ? <span className="qm-badge">{t("quickMessages.geralBadge")}</span> : null}
              </td>
              <td className="col-hide-sm qm-message">{q.message}</td>
              <td>{q.mediaName ?? "-"}</td>
              <RowActions
                onEdit={mine ? () => dialogs.edit(q.id) : undefined}
                onDelete={mine ? () => dialogs.askDelete(q) : undefined}
              />
            </tr>
          );
        })}
      </ResourceTable>
      <QuickMessageDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        recordId={dialogs.editing?.id ?? null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/quick-messages"
        title={t("quickMessages.deleteTitle", { name: dialogs.deleting?.shortcode ?? "" })}
        successKey="quickMessages.deleted"
      />
    </div>
  );
}
