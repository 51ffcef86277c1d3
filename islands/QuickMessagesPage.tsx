import { useTranslation } from "react-i18next";
import { useUser } from "./lib/session.ts";
import { can } from "./lib/permissions.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import type { QuickMessageView } from "../contract/quick_message_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const QuickMessageDialog = whenOpen(() =>
  import("./quick_messages/QuickMessageDialog.tsx").then((m) => m.QuickMessageDialog)
);

export type QuickMessagesPageProps = Record<string, never>;

/** /quick-messages (seeds/001 section 2 'Quick messages'): shortcode, attachment, actions. */
export default function QuickMessagesPage(_props: QuickMessagesPageProps) {
  return (
    <ListPage title="quickMessages.title" add="quickMessages.add">
      <QuickMessages />
    </ListPage>
  );
}

const byShortcode = (a: QuickMessageView, b: QuickMessageView) =>
  a.shortcode.localeCompare(b.shortcode, undefined, { sensitivity: "base" }) || a.id - b.id;

/** GET /api/quick-messages pages (`records`), live on company-<id>-quickMessage. */
const QUICK_MESSAGES: ListSpec<QuickMessageView> = {
  path: "/quick-messages",
  records: "records",
  channel: "quickMessage" as const,
  sort: byShortcode,
  testId: "quick",
  search: "quickMessages.search",
  empty: "quickMessages.empty",
  emptyHint: "quickMessages.emptyHint",
  head: [
    "quickMessages.shortcode",
    ["quickMessages.message", "col-hide-sm"],
    "quickMessages.attachment",
  ],
  actions: "quickMessages.actions",
  remove: {
    title: "quickMessages.deleteTitle",
    done: "quickMessages.deleted",
    values: (q) => ({ name: q.shortcode }),
  },
};

function QuickMessages() {
  const { t } = useTranslation();
  const me = useUser();
  const manageAny = can(me, "quick-message:manage-any");
  const page = useRecordPage(QUICK_MESSAGES);
  return (
    <RecordList page={page} dialog={<QuickMessageDialog {...page.form} />}>
      {page.list.items.map((q) => {
        const mine = manageAny || q.userId === me.id;
        return (
          <tr key={q.id} data-testid="quick-row" data-quick-id={q.id}>
            <td className="people-name">
              {q.shortcode}
              {q.geral ? <span className="qm-badge">{t("quickMessages.geralBadge")}</span> : null}
            </td>
            <td className="col-hide-sm qm-message">{q.message}</td>
            <td>{q.mediaName ?? "-"}</td>
            <RowActions {...page.actions(q, { edit: mine, remove: mine })} />
          </tr>
        );
      })}
    </RecordList>
  );
}
