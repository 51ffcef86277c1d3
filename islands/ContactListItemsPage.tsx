import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import ArrowLeft from "lucide-react/icons/arrow-left";
import CircleCheck from "lucide-react/icons/circle-check";
import CircleX from "lucide-react/icons/circle-x";
import Clock from "lucide-react/icons/clock";
import Upload from "lucide-react/icons/upload";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import type { ContactListItemView, ContactListView } from "../contract/campaign_types.ts";
import { api } from "./lib/api.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { can } from "./lib/permissions.ts";
import { useUser } from "./lib/session.ts";
import { Button } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";

const ItemDialog = whenOpen(() =>
  import("./contact_lists/ItemDialog.tsx").then((m) => m.ItemDialog)
);
const ImportDialog = whenOpen(() =>
  import("./lib/contact/ImportDialog.tsx").then((m) => m.ImportDialog)
);

export type ContactListItemsPageProps = { contactListId: number };

const OPEN_ADD = "contact-list-items:add";
const OPEN_IMPORT = "contact-list-items:import";
const XLS = ".xls,.xlsx,application/vnd.ms-excel," +
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** /contact-lists/:contactListId/contacts (seeds/002 section 2.4). */
export default function ContactListItemsPage({ contactListId }: ContactListItemsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      guard={CAMPAIGN_GUARD}
      title={t("contactLists.itemsTitle")}
      actions={
        <>
          <Button variant="ghost" onClick={() => location.assign("/contact-lists")}>
            <ArrowLeft size={18} aria-hidden="true" /> {t("contactLists.back")}
          </Button>
          <Button variant="ghost" onClick={() => dispatchEvent(new Event(OPEN_IMPORT))}>
            <Upload size={18} aria-hidden="true" /> {t("contactLists.import")}
          </Button>
          <AddButton event={OPEN_ADD} label={t("contactLists.addItem")} />
        </>
      }
    >
      <Items contactListId={contactListId} />
    </AppShell>
  );
}

function Items({ contactListId }: ContactListItemsPageProps) {
  const { t } = useTranslation();
  const user = useUser();
  const [importing, setImporting] = useState(false);
  const list = useResourceList<ContactListItemView>({
    path: "/contact-list-items",
    records: "contacts",
    channel: "contactListItem",
    params: { contactListId },
    sort: byName,
    // Items of every list share the channel: only this list's belong here.
    accepts: (item, term) => item.contactListId === contactListId && term === "",
  });
  const dialogs = useRecordDialogs<ContactListItemView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  useWindowEvent(OPEN_IMPORT, () => setImporting(true));
  const [listName, setListName] = useState("");
  useEffect(() => {
    api.get<ContactListView>(`/contact-lists/${contactListId}`).then((l) => setListName(l.name))
      .catch(() => {});
  }, [contactListId]);
  return (
    <div className="people-page">
      <h2 data-testid="contact-list-name">{listName}</h2>
      <ListSearch list={list} placeholder={t("common.search")} testId="contact-list-items-search" />
      <ResourceTable
        list={list}
        testId="contact-list-items"
        empty={t("contactLists.itemsEmpty")}
        head={
          <>
            <th />
            <th>{t("contactLists.name")}</th>
            <th>{t("contactLists.number")}</th>
            <th className="col-hide-sm">{t("contactLists.email")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((item) => (
          <tr
            key={item.id}
            data-testid="contact-list-item"
            data-valid={String(item.isWhatsappValid)}
          >
            <td>
              <ValidIcon valid={item.isWhatsappValid} />
            </td>
            <td className="people-name">{item.name}</td>
            <td>{item.number}</td>
            <td className="col-hide-sm">{item.email}</td>
            <RowActions
              onEdit={() => dialogs.edit(item.id)}
              onDelete={can(user, "contacts-page:deleteContact")
                ? () => dialogs.askDelete(item)
                : undefined}
            />
          </tr>
        ))}
      </ResourceTable>
      <ItemDialog
        open={dialogs.editing !== null}
        itemId={dialogs.editing?.id ?? null}
        contactListId={contactListId}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        onSaved={list.upsert}
      />
      <ImportDialog
        open={importing}
        onOpenChange={setImporting}
        onImported={list.reload}
        path={`/contact-lists/${contactListId}/upload`}
        accept={XLS}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/contact-list-items"
        title={t("contactLists.deleteItemTitle")}
        successKey="contactLists.itemDeleted"
      />
    </div>
  );
}

/** On WhatsApp, not on WhatsApp, or not checked yet (the check runs in the background). */
function ValidIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  if (valid === null) {
    return <Clock size={18} aria-label={t("contactLists.unchecked")} role="img" />;
  }
  return valid
    ? (
      <CircleCheck
        size={18}
        color="var(--success, #2e7d32)"
        aria-label={t("contactLists.valid")}
        role="img"
      />
    )
    : (
      <CircleX
        size={18}
        color="var(--danger, #c62828)"
        aria-label={t("contactLists.invalid")}
        role="img"
      />
    );
}
