import { useTranslation } from "react-i18next";
import Download from "lucide-react/icons/download";
import Users from "lucide-react/icons/users";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import type { ContactListView } from "../contract/campaign_types.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { downloadFile } from "./lib/download.ts";
import { toast } from "./lib/toast.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";

const ListDialog = whenOpen(() =>
  import("./contact_lists/ListDialog.tsx").then((m) => m.ListDialog)
);

export type ContactListsPageProps = Record<string, never>;

const OPEN_ADD = "contact-lists:add";

/** /contact-lists (seeds/002 section 2.4): name, contacts count and actions. */
export default function ContactListsPage(_props: ContactListsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      guard={CAMPAIGN_GUARD}
      title={t("contactLists.title")}
      actions={<AddButton event={OPEN_ADD} label={t("contactLists.add")} />}
    >
      <ContactLists />
    </AppShell>
  );
}

const LISTS = {
  path: "/contact-lists",
  records: "records",
  channel: "contactList" as const,
  sort: byName,
};

function ContactLists() {
  const { t } = useTranslation();
  const list = useResourceList<ContactListView>(LISTS);
  const dialogs = useRecordDialogs<ContactListView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  const example = () =>
    downloadFile("/contact-lists/example.xlsx", "lista-de-contatos.xlsx").catch((e) =>
      toast.error(e)
    );
  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("common.search")} testId="contact-lists-search" />
      <ResourceTable
        list={list}
        testId="contact-lists"
        empty={t("contactLists.empty")}
        head={
          <>
            <th>{t("contactLists.name")}</th>
            <th>{t("contactLists.contactsCount")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((l) => (
          <tr key={l.id} data-testid="contact-list-row">
            <td className="people-name">{l.name}</td>
            <td data-testid="contacts-count">
              {l.contactsCount}
              {l.uncheckedCount > 0
                ? ` · ${t("contactLists.checking", { count: l.uncheckedCount })}`
                : null}
            </td>
            <RowActions
              onEdit={() => dialogs.edit(l.id)}
              onDelete={() => dialogs.askDelete(l)}
            >
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
      </ResourceTable>
      <ListDialog
        open={dialogs.editing !== null}
        listId={dialogs.editing?.id ?? null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/contact-lists"
        title={t("contactLists.deleteTitle")}
        successKey="contactLists.deleted"
      />
    </div>
  );
}
