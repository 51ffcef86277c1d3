import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { listOf } from "../lib/shell/live.ts";
import { useUser } from "../lib/session.ts";
import { can } from "../lib/permissions.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Modal } from "../lib/ui/Modal.tsx";
import { ConfirmDialog } from "../lib/ui/ConfirmDialog.tsx";
import { NOTE_MIN_CHARS, noteTime } from "./format.ts";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { useCompanyClock } from "../lib/clock.ts";
import type { Note, Ticket } from "../../contract/ticket_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const NotebookPen = icon("notebook-pen");
const Trash2 = icon("trash-2");

/**
 * The ticket's notes (seeds/000 sections 3, 5, 8, 9): the list with author and DD/MM/YY HH:mm,
 * a new note of at least 2 characters ('Observação adicionada com sucesso!'), and deleting one's
 * own (admins any) with 'Observação excluída com sucesso!'.
 */
export default function NotesDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const zone = useCompanyClock().zone;
  const user = useUser();
  const deleteAny = can(user, "ticket-note:delete-any");
  const [notes, setNotes] = useState<Note[] | null>(null);
  const [text, setText] = useState("");
  const [removing, setRemoving] = useState<Note | null>(null);

  const load = () =>
    api.get<unknown>("/ticket-notes/list", {
      query: { ticketId: ticket.id, contactId: ticket.contactId },
    }).then((answer) => setNotes(listOf<Note>(answer, "notes"))).catch(() => setNotes([]));
  useEffect(() => {
    void load();
  }, [ticket.id]);

  const form = useFormSubmit({
    validate: (): Record<string, string> =>
      text.trim().length < NOTE_MIN_CHARS ? { note: "tickets.notes.tooShort" } : {},
    send: () =>
      api.post("/ticket-notes", {
        note: text.trim(),
        ticketId: ticket.id,
        contactId: ticket.contactId,
      }, { quiet: true }),
    successKey: "tickets.notes.added",
    onDone: () => {
      setText("");
      void load();
    },
  });
  const note = form.bind("note", text, setText);

  const remove = async () => {
    if (!removing) return;
    await api.delete(`/ticket-notes/${removing.id}`);
    toast.success({ key: "tickets.notes.removed" });
    await load();
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("tickets.notes.title")}
      width={560}
    >
      <form onSubmit={form.onSubmit} noValidate className="nd-form">
        <textarea
          className="input nd-text"
          rows={3}
          name={note.name}
          value={note.value}
          placeholder={t("tickets.notes.placeholder")}
          aria-label={t("tickets.notes.placeholder")}
          aria-invalid={note.error ? true : undefined}
          onChange={note.onChange}
          data-testid="note-text"
        />
        {note.error ? <span className="field-error">{note.error}</span> : null}
        <div className="nd-actions">
          <Button variant="primary" type="submit" loading={form.saving} data-testid="note-submit">
            {t("tickets.notes.add")}
          </Button>
        </div>
      </form>
      <ul className="nd-list" data-testid="notes">
        {notes === null ? <li className="nd-empty">{t("common.loading")}</li> : null}
        {notes?.length === 0
          ? (
            <li className="nd-empty">
              <NotebookPen size={20} aria-hidden="true" />
              {t("tickets.notes.none")}
            </li>
          )
          : null}
        {notes?.map((note) => (
          <li key={note.id} className="nd-item">
            <div className="nd-head">
              <strong>{note.user?.name ?? "—"}</strong>
              <time dateTime={note.createdAt}>{noteTime(note.createdAt, zone)}</time>
              {deleteAny || note.userId === user.id
                ? (
                  <IconButton label={t("common.delete")} onClick={() => setRemoving(note)}>
                    <Trash2 size={15} aria-hidden="true" />
                  </IconButton>
                )
                : null}
            </div>
            <p className="nd-body">{note.note}</p>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t("tickets.notes.deleteTitle")}
        danger
        description={t("tickets.notes.deleteText")}
        confirmLabel={t("common.delete")}
        onConfirm={remove}
      />
    </Modal>
  );
}
