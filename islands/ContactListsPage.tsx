import { useTranslation } from "react-i18next";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import type { ContactListView } from "../contract/campaign_types.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { downloadFile } from "./lib/download.ts";
import { toast } from "./lib/toast.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { icon } from "./lib/ui/icon.tsx";

const Download = icon("download");
const Users = icon("users");

const ListDialog = whenOpen(() =>
  import("./contact_lists/ListDialog.tsx").then((m) => m.ListDialog)
);

export type ContactListsPageProps = Record<string, never>;

/** /contact-lists (seeds/002 section 2.4): name, contacts count and actions. */
export default function ContactListsPage(_props: ContactListsPageProps) {
  return (
    <ListPage title="contactLists.title" add="contactLists.add" guard={CAMPAIGN_GUARD}>
      <ContactLists />
    </ListPage>
  );
}

const LISTS: ListSpec<ContactListView> = {
  path: "/contact-lists",
  records: "records",
  channel: "contactList",
  sort: byName,
  testId: "contact-lists",
  search: "common.search",
  empty: "contactLists.empty",
  emptyHint: "contactLists.emptyHint",
  head: ["contactLists.name", "contactLists.contactsCount"],
  remove: { title: "contactLists.deleteTitle", done: "contactLists.deleted" },
};

const example = () =>
  downloadFile("/contact-lists/example.xlsx", "lista-de-contatos.xlsx").catch((e) =>
    toast.error(e)
  );

function ContactLists() {
  const { t } = useTranslation();
  const page = useRecordPage(LISTS);
  return (
    <RecordList page={page} dialog={<ListDialog {...page.form} />}>
      {page.list.items.map((l) => (
        <tr key={l.id} data-testid="contact-list-row">
          <td className="people-name">{l.name}</td>
          <td data-testid="contacts-count">
            {l.contactsCount}
            {l.uncheckedCount > 0
              ? ` · ${t("contactLists.checking", { count: l.uncheckedCount })}`
              : null}
          </td>
          <RowActions {...page.actions(l)}>
            <IconButton label={t("contactLists.example")} onClick={example}>
              <Download size={18} aria-hidden="true" />
            </IconButton>
            <IconButton
              label={t("contactLists.items")}
              onClick={() => location.assign(`/contact-lists/${l.id}/contacts`)}
            >
              <Users size={18} aria-hidden="true" />
            </IconButton>
          </RowActions>
        </tr>
      ))}
    </RecordList>
  );
}
