import { useState } from "react";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { useTranslation } from "react-i18next";
import Download from "lucide-react/icons/download";
import MessageCircle from "lucide-react/icons/message-circle";
import Upload from "lucide-react/icons/upload";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { isAdmin, useSessionUser, useUser } from "./lib/session.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { Avatar } from "./contacts/Avatar.tsx";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";

import { downloadFile } from "./lib/download.ts";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";

import { openChat } from "./contacts/open_chat.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";

import type { Contact } from "../contract/people_types.ts";

const ContactDialog = whenOpen(() =>
  import("./lib/contact/ContactDialog.tsx").then((m) => m.default)
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
  const { t } = useTranslation();
  return (
    <AppShell title={t("contacts.title")} actions={<ContactActions />}>
      <Contacts />
    </AppShell>
  );
}

/** Header buttons talk to the list through window events: they live outside its tree. */
const OPEN_ADD = "contacts:add";
const OPEN_IMPORT = "contacts:import";

function ContactActions() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const admin = isAdmin(user);
  const [exporting, setExporting] = useState(false);
  if (!user) return null;
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
      {admin
        ? (
          <>
            <Button onClick={() => dispatchEvent(new Event(OPEN_IMPORT))}>
              <Upload size={16} aria-hidden="true" />
              <span className="btn-label">{t("contacts.import")}</span>
            </Button>
            <Button onClick={exportCsv} loading={exporting}>
              <Download size={16} aria-hidden="true" />
              <span className="btn-label">{t("contacts.export")}</span>
            </Button>
          </>
        )
        : null}
      <AddButton event={OPEN_ADD} label={t("contacts.add")} />
    </>
  );
}

/** GET /api/contacts pages, live on company-<id>-contact. */
const CONTACTS = {
  path: "/contacts",
  records: "contacts",
  channel: "contact" as const,
  sort: byName,
};

function Contacts() {
  const { t } = useTranslation();
  const user = useUser();
  const admin = isAdmin(user);
  const list = useResourceList<Contact>(CONTACTS);
  const dialogs = useRecordDialogs<Contact>();
  const [importing, setImporting] = useState(false);
  const [chatFor, setChatFor] = useState<Contact | null>(null);
  useWindowEvent(OPEN_ADD, dialogs.add);
  useWindowEvent(OPEN_IMPORT, () => setImporting(true));

  const startChat = (contact: Contact) => {
    if (user.queues.length > 1 || (!admin && user.queues.length === 0)) setChatFor(contact);
    else void openChat(contact.id, user, user.queues[0]?.id ?? null);
  };

  return (
    <div className="people-page">
      <ListSearch
        list={list}
        placeholder={t("contacts.searchPlaceholder")}
        testId="contacts-search"
      />
      <ResourceTable
        list={list}
        testId="contacts-list"
        empty={t("contacts.empty")}
        head={
          <>
            <th className="col-avatar" aria-label={t("contacts.picture")} />
            <th>{t("contacts.name")}</th>
            <th>{t("contacts.number")}</th>
            <th className="col-hide-sm">{t("contacts.email")}</th>
            <th className="col-actions">{t("contacts.actions")}</th>
          </>
        }
      >
        {list.items.map((c) => (
          <tr key={c.id} data-testid="contact-row" data-contact-id={c.id}>
            <td className="col-avatar">
              <Avatar name={c.name} src={c.profilePicUrl || undefined} />
            </td>
            <td className="people-name">{c.name}</td>
            <td>{c.number}</td>
            <td className="col-hide-sm">{c.email}</td>
            <RowActions
              onEdit={() => dialogs.edit(c.id)}
              onDelete={admin ? () => dialogs.askDelete(c) : undefined}
            >
              <IconButton label={t("contacts.openChat")} onClick={() => startChat(c)}>
                <MessageCircle size={18} aria-hidden="true" />
              </IconButton>
            </RowActions>
          </tr>
        ))}
      </ResourceTable>

      <ContactDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        contactId={dialogs.editing?.id ?? null}
        onSaved={list.upsert}
      />
      <ImportDialog open={importing} onOpenChange={setImporting} onImported={list.reload} />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/contacts"
        title={t("contacts.deleteTitle", { name: dialogs.deleting?.name ?? "" })}
        description={t("contacts.deleteMessage")}
        successKey="contacts.deleted"
      />
      <QueuePickDialog
        open={chatFor !== null}
        onOpenChange={(open) => !open && setChatFor(null)}
        queues={user.queues}
        optional={admin}
        onPick={(queueId) => {
          const contact = chatFor;
          setChatFor(null);
          if (contact) void openChat(contact.id, user, queueId);
        }}
      />
    </div>
  );
}
