import { ScheduleDialog as SharedScheduleDialog } from "../lib/schedules/ScheduleDialog.tsx";
import type { Ticket } from "../../contract/ticket_types.ts";

/** Schedules a message to the ticket's contact: the dialog of /schedules, its contact fixed. */
export default function ScheduleDialog(
  { ticket, onClose }: { ticket: Ticket; onClose: () => void },
) {
  return (
    <SharedScheduleDialog
      open
      onOpenChange={(open) => !open && onClose()}
      id={null}
      contact={{
        id: ticket.contactId,
        name: ticket.contact?.name ?? "",
        number: ticket.contact?.number,
      }}
      ticketId={ticket.id}
    />
  );
}
