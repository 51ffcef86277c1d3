import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSessionUser, useUser } from "./lib/session.ts";
import { can } from "./lib/permissions.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { Avatar } from "./contacts/Avatar.tsx";
import { downloadFile } from "./lib/download.ts";
import { useWindowEvent } from "./lib/list/hooks.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { openChat } from "./contacts/open_chat.ts";
import type { Contact } from "../contract/people_types.ts";
import { icon } from "./lib/ui/icon.tsx";

const Download = icon("download");
const MessageCircle = icon("message-circle");
const Upload = icon("upload");

const ContactDialog = whenOpen(() =>
  import("./lib/contact/ContactDialog.tsx").then((m) => m.ContactDialog)
);
const ImportDialog = whenOpen(() =>
  import("./lib/contact/ImportDialog.tsx").then((m) => m.ImportDialog)
);
const QueuePickDialog = whenOpen(() =>
  import("./contacts/QueuePickDialog.tsx").then((m) => m.QueuePickDialog)
);

export type ContactsPageProps = Record<string, never>;

/** /contacts (seeds/000 section 2 'Contacts'). */
export default function ContactsPage(_props: ContactsPageProps) {
  return (
    <ListPage title="contacts.title" add="contacts.add" actions={<AdminActions />}>
      <Contacts />
    </ListPage>
  );
}

/** Header buttons talk to the list through window events: they live outside its tree. */
const OPEN_IMPORT = "contacts:import";

/** Import and export, for admins. */
function AdminActions() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const [exporting, setExporting] = useState(false);
  if (!user || !(can(user, "contact:import") || can(user, "contact:export"))) return null;
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadFile("/contacts/export", "contatos.csv");
    } catch (error) {
      toast.error(error);
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      {can(user, "contact:import")
        ? (
          <Button onClick={() => dispatchEvent(new Event(OPEN_IMPORT))}>
            <Upload size={16} aria-hidden="true" />
            <span className="btn-label">{t("contacts.import")}</span>
          </Button>
        )
        : null}
      {can(user, "contact:export")
        ? (
          <Button onClick={exportCsv} loading={exporting}>
            <Download size={16} aria-hidden="true" />
            <span className="btn-label">{t("contacts.export")}</span>
          </Button>
        )
        : null}
    </>
  );
}

/** GET /api/contacts pages, live on company-<id>-contact. */
const CONTACTS: ListSpec<Contact> = {
  path: "/contacts",
  records: "contacts",
  channel: "contact",
  sort: byName,
  testId: "contacts",
  search: "contacts.searchPlaceholder",
  empty: "contacts.empty",
  emptyHint: "contacts.emptyHint",
  head: [
    { label: "contacts.picture", className: "col-avatar" },
    "contacts.name",
    "contacts.number",
    ["contacts.email", "col-hide-sm"],
  ],
  actions: "contacts.actions",
  remove: {
    title: "contacts.deleteTitle",
    text: "contacts.deleteMessage",
    done: "contacts.deleted",
  },
};

function Contacts() {
  const { t } = useTranslation();
  const user = useUser();
  const skipQueue = can(user, "ticket:skip-queue");
  const page = useRecordPage(CONTACTS);
  const [importing, setImporting] = useState(false);
  const [chatFor, setChatFor] = useState<Contact | null>(null);
  useWindowEvent(OPEN_IMPORT, () => setImporting(true));

  const startChat = (contact: Contact) => {
    if (user.queues.length > 1 || (!skipQueue && user.queues.length === 0)) setChatFor(contact);
    else void openChat(contact.id, user, user.queues[0]?.id ?? null);
  };
  const dialogs = (
    <>
      <ContactDialog {...page.form} />
      <ImportDialog open={importing} onOpenChange={setImporting} onImported={page.list.reload} />
      <QueuePickDialog
        open={chatFor !== null}
        onOpenChange={(open) => !open && setChatFor(null)}
        queues={user.queues}
        optional={skipQueue}
        onPick={(queueId) => {
          const contact = chatFor;
          setChatFor(null);
          if (contact) void openChat(contact.id, user, queueId);
        }}
      />
    </>
  );

  return (
    <RecordList page={page} dialog={dialogs}>
      {page.list.items.map((c) => (
        <tr key={c.id} data-testid="contact-row" data-contact-id={c.id}>
          <td className="col-avatar">
            <Avatar name={c.name} src={c.profilePicUrl || undefined} />
          </td>
          <td className="people-name">{c.name}</td>
          <td>{c.number}</td>
          <td className="col-hide-sm">{c.email}</td>
          <RowActions
            {...page.actions(c, { edit: true, remove: can(user, "contacts-page:deleteContact") })}
          >
            <IconButton label={t("contacts.openChat")} onClick={() => startChat(c)}>
              <MessageCircle size={18} aria-hidden="true" />
            </IconButton>
          </RowActions>
        </tr>
      ))}
    </RecordList>
  );
}
