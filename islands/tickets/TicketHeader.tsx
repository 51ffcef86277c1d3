import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useUser } from "../lib/session.ts";
import { can, canReadReports } from "../lib/permissions.ts";
import { downloadFile } from "../lib/download.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Menu, MenuItem, MenuSeparator } from "../lib/ui/Menu.tsx";
import { Avatar, Chip } from "./bits.tsx";
import { ConfirmDialog } from "../lib/ui/ConfirmDialog.tsx";
import type { Ticket } from "../../contract/ticket_types.ts";
import { lazyPart } from "../lib/ui/deferred.tsx";
import { SlaBadge, useNow } from "./SlaBadge.tsx";
import { HeaderTools } from "./HeaderTools.tsx";
import { icon } from "../lib/ui/icon.tsx";
import { askSummary, useAssistPlan } from "./assist.tsx";

const ArrowLeft = icon("arrow-left");
const ArrowRightLeft = icon("arrow-right-left");
const CalendarClock = icon("calendar-clock");
const Check = icon("check");
const CircleCheckBig = icon("circle-check-big");
const EllipsisVertical = icon("ellipsis-vertical");
const FileText = icon("file-text");
const NotebookPen = icon("notebook-pen");
const RotateCcw = icon("rotate-ccw");
const Sparkles = icon("sparkles");
const Tag = icon("tag");
const Trash2 = icon("trash-2");
const Undo2 = icon("undo-2");
const UserRound = icon("user-round");

const TransferDialog = lazyPart(() => import("./TransferDialog.tsx").then((m) => m.default));
const ScheduleDialog = lazyPart(() => import("./ScheduleDialog.tsx").then((m) => m.default));
const NotesDialog = lazyPart(() => import("./NotesDialog.tsx").then((m) => m.default));
const TagsDialog = lazyPart(() => import("./TagsDialog.tsx").then((m) => m.default));

type Dialog = "transfer" | "schedule" | "notes" | "tags" | "delete" | null;
type Action = "accept" | "return" | "resolve" | "reopen";

/**
 * The ticket's header (seeds/000 sections 2 and 4): contact name (opens the contact drawer),
 * ticket number, queue and assigned user, the time left to its target beside the name (issue 50
 * item 3: never among the chips, which give way first); the actions of its status (accept; return, resolve,
 * transfer; reopen) and the options menu (schedule, notes, tags, contact, the printable
 * transcript for who reads reports (issue 27), delete: ticket-options:deleteTicket).
 * Return and resolve leave the chat for the list.
 */
export function TicketHeader(
  { ticket, onBack, onChanged, onLeave, onContact, onJump }: {
    ticket: Ticket;
    onBack: () => void;
    onChanged: (ticket: Ticket) => void;
    onLeave: () => void;
    onContact: () => void;
    /** Issue 28: show a message of the conversation (a search hit). */
    onJump: (messageId: number) => void;
  },
) {
  const { t } = useTranslation();
  const user = useUser();
  const now = useNow();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState<Action | null>(null);
  const name = ticket.contact?.name || ticket.contact?.number || `#${ticket.id}`;
  const schedules = user.company.plan?.useSchedules !== false;
  const assist = useAssistPlan();

  const act = async (action: Action) => {
    setBusy(action);
    try {
      const answer = await api.put<Ticket | undefined>(`/tickets/${ticket.id}`, { action });
      if (action === "return" || action === "resolve") {
        onLeave();
        return;
      }
      if (answer && typeof answer === "object" && "uuid" in answer) onChanged(answer);
    } catch {
      // shown by the api client
    } finally {
      setBusy(null);
    }
  };

  // The printable transcript (issue 27): a file the browser opens and prints (a plain link would
  // not carry the token). A supervisor of other queues is answered 404, shown as the error.
  const transcript = () =>
    downloadFile(`/reports/tickets/${ticket.id}/transcript`, `ticket-${ticket.id}.html`)
      .catch((error) => toast.error(error));

  const remove = async () => {
    await api.delete(`/tickets/${ticket.id}`);
    // The delete event takes the user back to the list with its message (TicketView).
  };

  const close = () => setDialog(null);

  return (
    <header className="th" data-testid="ticket-header">
      <IconButton label={t("tickets.backToList")} className="th-back" onClick={onBack}>
        <ArrowLeft size={20} aria-hidden="true" />
      </IconButton>
      <button
        type="button"
        className="th-contact"
        onClick={onContact}
        title={t("tickets.contact.details")}
      >
        <Avatar name={name} src={ticket.contact?.profilePicUrl} size={40} />
        <span className="th-text">
          <span className="th-title">
            <span className="th-name" data-testid="ticket-contact-name" title={name}>{name}</span>
            <SlaBadge ticket={ticket} now={now} />
          </span>
          <span className="th-sub">
            <span data-testid="ticket-number">{t("tickets.number", { id: ticket.id })}</span>
            {ticket.user
              ? (
                <span data-testid="ticket-user">
                  {t("tickets.assignedTo", { name: ticket.user.name })}
                </span>
              )
              : <span>{t("tickets.unassigned")}</span>}
          </span>
        </span>
      </button>
      <span className="th-chips">
        <Chip color={ticket.queue?.color}>{ticket.queue?.name ?? t("tickets.noQueue")}</Chip>
        {ticket.tags?.map((tag) => <Chip key={tag.id} color={tag.color}>{tag.name}</Chip>)}
      </span>
      <div className="th-actions" data-status={ticket.status}>
        <HeaderTools ticketId={ticket.id} pinned={ticket.pinned === true} onJump={onJump} />
        {ticket.status === "pending"
          ? (
            <Button
              variant="primary"
              loading={busy === "accept"}
              onClick={() => act("accept")}
              aria-label={t("tickets.actions.accept")}
              data-testid="action-accept"
            >
              <Check size={16} aria-hidden="true" />
              <span className="th-label">{t("tickets.actions.accept")}</span>
            </Button>
          )
          : null}
        {ticket.status === "open"
          ? (
            <>
              <Button
                variant="ghost"
                loading={busy === "return"}
                onClick={() => act("return")}
                aria-label={t("tickets.actions.return")}
                data-testid="action-return"
              >
                <Undo2 size={16} aria-hidden="true" />
                <span className="th-label">{t("tickets.actions.return")}</span>
              </Button>
              <Button
                variant="primary"
                loading={busy === "resolve"}
                onClick={() => act("resolve")}
                aria-label={t("tickets.actions.resolve")}
                data-testid="action-resolve"
              >
                <CircleCheckBig size={16} aria-hidden="true" />
                <span className="th-label">{t("tickets.actions.resolve")}</span>
              </Button>
            </>
          )
          : null}
        {ticket.status === "closed"
          ? (
            <Button
              variant="primary"
              loading={busy === "reopen"}
              onClick={() => act("reopen")}
              aria-label={t("tickets.actions.reopen")}
              data-testid="action-reopen"
            >
              <RotateCcw size={16} aria-hidden="true" />
              <span className="th-label">{t("tickets.actions.reopen")}</span>
            </Button>
          )
          : null}
        {ticket.status !== "closed"
          ? (
            <IconButton
              label={t("tickets.actions.transfer")}
              onClick={() => setDialog("transfer")}
              data-testid="action-transfer"
            >
              <ArrowRightLeft size={19} aria-hidden="true" />
            </IconButton>
          )
          : null}
        <Menu
          label={t("tickets.options.label")}
          trigger={
            <IconButton label={t("tickets.options.label")} data-testid="ticket-options">
              <EllipsisVertical size={20} aria-hidden="true" />
            </IconButton>
          }
        >
          {schedules
            ? (
              <MenuItem
                icon={<CalendarClock size={16} aria-hidden="true" />}
                onSelect={() => setDialog("schedule")}
              >
                {t("tickets.options.schedule")}
              </MenuItem>
            )
            : null}
          <MenuItem
            icon={<NotebookPen size={16} aria-hidden="true" />}
            onSelect={() => setDialog("notes")}
          >
            {t("tickets.options.notes")}
          </MenuItem>
          <MenuItem icon={<Tag size={16} aria-hidden="true" />} onSelect={() => setDialog("tags")}>
            {t("tickets.options.tags")}
          </MenuItem>
          {assist
            ? (
              <MenuItem
                icon={<Sparkles size={16} aria-hidden="true" />}
                onSelect={() => void askSummary(ticket.id)}
              >
                {t("tickets.options.summary")}
              </MenuItem>
            )
            : null}
          <MenuItem icon={<UserRound size={16} aria-hidden="true" />} onSelect={onContact}>
            {t("tickets.contact.details")}
          </MenuItem>
          {canReadReports(user)
            ? (
              <MenuItem
                icon={<FileText size={16} aria-hidden="true" />}
                onSelect={() => void transcript()}
              >
                {t("tickets.options.transcript")}
              </MenuItem>
            )
            : null}
          {can(user, "ticket-options:deleteTicket")
            ? (
              <>
                <MenuSeparator />
                <MenuItem
                  icon={<Trash2 size={16} aria-hidden="true" />}
                  onSelect={() => setDialog("delete")}
                >
                  {t("tickets.options.delete")}
                </MenuItem>
              </>
            )
            : null}
        </Menu>
      </div>
      {dialog === "transfer"
        ? (
          <TransferDialog
            ticket={ticket}
            onClose={close}
            onDone={() => {
              close();
              toast.success({ key: "tickets.transfer.done" });
              onLeave();
            }}
          />
        )
        : null}
      {dialog === "schedule" ? <ScheduleDialog ticket={ticket} onClose={close} /> : null}
      {dialog === "notes" ? <NotesDialog ticket={ticket} onClose={close} /> : null}
      {dialog === "tags"
        ? <TagsDialog ticket={ticket} onClose={close} onSaved={onChanged} />
        : null}
      <ConfirmDialog
        open={dialog === "delete"}
        onOpenChange={(open) => setDialog(open ? "delete" : null)}
        title={t("tickets.delete.title", { id: ticket.id })}
        danger
        description={t("tickets.delete.text")}
        confirmLabel={t("common.delete")}
        onConfirm={remove}
      />
    </header>
  );
}
