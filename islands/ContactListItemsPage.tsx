import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import type { ContactListItemView, ContactListView } from "../contract/campaign_types.ts";
import { usePageRecord } from "./lib/use_record.ts";
import { RecordMissing } from "./lib/ui/RecordMissing.tsx";
import { useWindowEvent } from "./lib/list/hooks.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { can } from "./lib/permissions.ts";
import { useUser } from "./lib/session.ts";
import { Button } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { icon } from "./lib/ui/icon.tsx";

const ArrowLeft = icon("arrow-left");
const CircleCheck = icon("circle-check");
const CircleX = icon("circle-x");
const Clock = icon("clock");
const Upload = icon("upload");

const ItemDialog = whenOpen(() =>
  import("./contact_lists/ItemDialog.tsx").then((m) => m.ItemDialog)
);
const ImportDialog = whenOpen(() =>
  import("./lib/contact/ImportDialog.tsx").then((m) => m.ImportDialog)
);

export type ContactListItemsPageProps = { contactListId: number };

const OPEN_IMPORT = "contact-list-items:import";
const XLS = ".xls,.xlsx,application/vnd.ms-excel," +
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** /contact-lists/:contactListId/contacts (seeds/002 section 2.4). */
export default function ContactListItemsPage({ contactListId }: ContactListItemsPageProps) {
  const { t } = useTranslation();
  // The list's own actions only once the list is known to exist (issue 24 item 4).
  const [found, setFound] = useState(false);
  const actions = (
    <>
      <Button variant="ghost" onClick={() => location.assign("/contact-lists")}>
        <ArrowLeft size={18} aria-hidden="true" /> {t("contactLists.back")}
      </Button>
      {found
        ? (
          <Button variant="ghost" onClick={() => dispatchEvent(new Event(OPEN_IMPORT))}>
            <Upload size={18} aria-hidden="true" /> {t("contactLists.import")}
          </Button>
        )
        : null}
    </>
  );
  return (
    <ListPage
      title="contactLists.itemsTitle"
      add={found ? "contactLists.addItem" : undefined}
      actions={actions}
      guard={CAMPAIGN_GUARD}
    >
      <ContactList contactListId={contactListId} onFound={() => setFound(true)} />
    </ListPage>
  );
}

/** The list of the URL: its items once it is known, else the one 'not found' message. */
function ContactList(
  { contactListId, onFound }: ContactListItemsPageProps & { onFound: () => void },
) {
  const list = usePageRecord<ContactListView>(`/contact-lists/${contactListId}`);
  useEffect(() => {
    if (list.record) onFound();
  }, [list.record !== null]);
  if (list.missing) return <RecordMissing back="/contact-lists" backLabel="contactLists.back" />;
  if (!list.record) return <div className="skeleton" style={{ height: 200 }} />;
  return <Items contactListId={contactListId} listName={list.record.name} />;
}

/** The items of one list (the channel carries every list's: only this one's belong here). */
function itemsOf(contactListId: number): ListSpec<ContactListItemView> {
  return {
    path: "/contact-list-items",
    records: "contacts",
    channel: "contactListItem",
    params: { contactListId },
    sort: byName,
    accepts: (item, term) => item.contactListId === contactListId && term === "",
    testId: "contact-list-items",
    search: "common.search",
    empty: "contactLists.itemsEmpty",
    head: ["", "contactLists.name", "contactLists.number", ["contactLists.email", "col-hide-sm"]],
    remove: { title: "contactLists.deleteItemTitle", done: "contactLists.itemDeleted" },
  };
}

function Items({ contactListId, listName }: ContactListItemsPageProps & { listName: string }) {
  const user = useUser();
  const [importing, setImporting] = useState(false);
  const page = useRecordPage(itemsOf(contactListId));
  useWindowEvent(OPEN_IMPORT, () => setImporting(true));
  const remove = can(user, "contacts-page:deleteContact");
  const dialogs = (
    <>
      <ItemDialog {...page.form} contactListId={contactListId} />
      <ImportDialog
        open={importing}
        onOpenChange={setImporting}
        onImported={page.list.reload}
        path={`/contact-lists/${contactListId}/upload`}
        accept={XLS}
      />
    </>
  );
  return (
    <RecordList
      page={page}
      dialog={dialogs}
      heading={<h2 data-testid="contact-list-name">{listName}</h2>}
    >
      {page.list.items.map((item) => (
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
          <RowActions {...page.actions(item, { edit: true, remove })} />
        </tr>
      ))}
    </RecordList>
  );
}

/** On WhatsApp, not on WhatsApp, or not checked yet (the check runs in the background). */
function ValidIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  if (valid === null) {
    return <Clock size={18} aria-label={t("contactLists.unchecked")} role="img" />;
  }
  const Icon = valid ? CircleCheck : CircleX;
  return (
    <Icon
      size={18}
      color={valid ? "var(--success, #2e7d32)" : "var(--danger, #c62828)"}
      aria-label={t(valid ? "contactLists.valid" : "contactLists.invalid")}
      role="img"
    />
  );
}
