import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Download, MessageCircle, Pencil, Plus, Trash2, Upload } from "lucide-react";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { api } from "./lib/api.ts";
import { isAdmin, useSessionUser, useUser } from "./lib/session.ts";
import { useRealtime } from "./lib/socket.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { Avatar } from "./contacts/Avatar.tsx";
import { ConfirmDialog } from "./lib/list/ConfirmDialog.tsx";
import { ContactDialog } from "./contacts/ContactDialog.tsx";
import { downloadCsv } from "./contacts/download.ts";
import { useInfiniteScroll, useSearchTerm } from "./lib/list/hooks.ts";
import { ImportDialog } from "./contacts/ImportDialog.tsx";
import { openChat } from "./contacts/open_chat.ts";
import { PeopleList, SearchBox } from "./lib/list/PeopleList.tsx";
import { QueuePickDialog } from "./contacts/QueuePickDialog.tsx";
import type { Contact, ContactPage } from "./lib/people_types.ts";

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
      await downloadCsv("/contacts/export", "contatos.csv");
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
      <Button variant="primary" onClick={() => dispatchEvent(new Event(OPEN_ADD))}>
        <Plus size={16} aria-hidden="true" />
        <span className="btn-label">{t("contacts.add")}</span>
      </Button>
    </>
  );
}

function byName(a: Contact, b: Contact) {
  return a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;
}

function Contacts() {
  const { t } = useTranslation();
  const user = useUser();
  const admin = isAdmin(user);
  const [typed, setTyped] = useState("");
  const term = useSearchTerm(typed);
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [importing, setImporting] = useState(false);
  const [chatFor, setChatFor] = useState<Contact | null>(null);
  const [reload, setReload] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const seq = useRef(0);

  const load = useCallback((pageNumber: number) => {
    const mine = ++seq.current;
    setLoading(true);
    api.get<ContactPage>("/contacts", {
      query: { pageNumber, ...(term ? { searchParam: term } : {}) },
    }).then((answer) => {
      if (mine !== seq.current) return;
      setContacts((list) => {
        if (pageNumber === 1) return answer.contacts;
        const known = new Set(list.map((c) => c.id));
        return [...list, ...answer.contacts.filter((c) => !known.has(c.id))];
      });
      setHasMore(answer.hasMore);
      setPage(pageNumber);
    }).catch(() => {}).finally(() => {
      if (mine === seq.current) setLoading(false);
    });
  }, [term]);

  useEffect(() => load(1), [load, reload]);

  const loadMore = useCallback(() => {
    if (!loading && hasMore) load(page + 1);
  }, [loading, hasMore, page, load]);
  useInfiniteScroll(scroller, hasMore && !loading, loadMore, contacts.length);

  useEffect(() => {
    const add = () => setEditing({ id: null });
    const imp = () => setImporting(true);
    addEventListener(OPEN_ADD, add);
    addEventListener(OPEN_IMPORT, imp);
    return () => {
      removeEventListener(OPEN_ADD, add);
      removeEventListener(OPEN_IMPORT, imp);
    };
  }, []);

  // Live list: company-<id>-contact (server/contacts/service.ts).
  useRealtime("contact", (data) => {
    const event = data as { action: string; contact?: Contact; contactId?: number };
    if (event.action === "reload") setReload((n) => n + 1);
    else if (event.action === "delete") {
      setContacts((list) => list.filter((c) => c.id !== event.contactId));
    } else if (event.contact) {
      const contact = event.contact;
      setContacts((list) => {
        const at = list.findIndex((c) => c.id === contact.id);
        if (at >= 0) return list.map((c) => (c.id === contact.id ? { ...c, ...contact } : c));
        // A new contact joins the list only when no search narrows it.
        return term ? list : [...list, contact].sort(byName);
      });
    }
  });

  const startChat = (contact: Contact) => {
    if (user.queues.length > 1 || (!admin && user.queues.length === 0)) setChatFor(contact);
    else void openChat(contact.id, user, user.queues[0]?.id ?? null);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await api.delete(`/contacts/${deleting.id}`);
      setContacts((list) => list.filter((c) => c.id !== deleting.id));
      toast.success({ key: "contacts.deleted" });
      setDeleting(null);
    } catch {
      // toasted by the api client
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <div className="people-page">
      <SearchBox
        value={typed}
        onChange={setTyped}
        placeholder={t("contacts.searchPlaceholder")}
        label={t("common.search")}
        testId="contacts-search"
      />
      <PeopleList ref={scroller} testId="contacts-list">
        <table className="people-table">
          <thead>
            <tr>
              <th className="col-avatar" aria-label={t("contacts.picture")} />
              <th>{t("contacts.name")}</th>
              <th>{t("contacts.number")}</th>
              <th className="col-hide-sm">{t("contacts.email")}</th>
              <th className="col-actions">{t("contacts.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {contacts.map((c) => (
              <tr key={c.id} data-testid="contact-row" data-contact-id={c.id}>
                <td className="col-avatar">
                  <Avatar name={c.name} src={c.profilePicUrl || undefined} />
                </td>
                <td className="people-name">{c.name}</td>
                <td>{c.number}</td>
                <td className="col-hide-sm">{c.email}</td>
                <td className="col-actions">
                  <IconButton label={t("contacts.openChat")} onClick={() => startChat(c)}>
                    <MessageCircle size={18} aria-hidden="true" />
                  </IconButton>
                  <IconButton label={t("common.edit")} onClick={() => setEditing({ id: c.id })}>
                    <Pencil size={18} aria-hidden="true" />
                  </IconButton>
                  {admin
                    ? (
                      <IconButton label={t("common.delete")} onClick={() => setDeleting(c)}>
                        <Trash2 size={18} aria-hidden="true" />
                      </IconButton>
                    )
                    : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {loading ? <div className="people-loading">{t("common.loading")}</div> : null}
        {!loading && contacts.length === 0
          ? <div className="empty-state">{t("contacts.empty")}</div>
          : null}
      </PeopleList>

      <ContactDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        contactId={editing?.id ?? null}
        onSaved={(saved) =>
          setContacts((list) =>
            list.some((c) => c.id === saved.id)
              ? list.map((c) => (c.id === saved.id ? { ...c, ...saved } : c))
              : term
              ? list
              : [...list, saved].sort(byName)
          )}
      />
      <ImportDialog
        open={importing}
        onOpenChange={setImporting}
        onImported={() => setReload((n) => n + 1)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("contacts.deleteTitle", { name: deleting?.name ?? "" })}
        onConfirm={confirmDelete}
        busy={deleteBusy}
      >
        {t("contacts.deleteMessage")}
      </ConfirmDialog>
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
