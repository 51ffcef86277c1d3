import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { toast } from "../lib/toast.ts";

type Owner = {
  uuid?: string;
  userId?: number | null;
  user?: { name?: string } | null;
  queue?: { name?: string } | null;
};

/** The other ticket named in an ERR_OTHER_OPEN_TICKET answer (its message is a JSON string). */
export function otherTicketOf(error: unknown): Owner | null {
  if (!(error instanceof ApiError) || error.code !== "ERR_OTHER_OPEN_TICKET") return null;
  try {
    const parsed = JSON.parse(error.message);
    return parsed && typeof parsed === "object" ? parsed as Owner : {};
  } catch {
    return {};
  }
}

/**
 * Opens a chat with a contact (seeds/000 sections 2 'Contacts' and 8): POST /api/tickets with
 * status open for me, then /tickets/<uuid>. When the contact already has an open ticket: mine is
 * opened; another user's is named (user and queue) in a toast.
 */
export async function openChat(
  contactId: number,
  me: { id: number },
  queueId: number | null,
  go: (path: string) => void = (path) => location.assign(path),
): Promise<void> {
  try {
    const ticket = await api.post<{ uuid: string }>("/tickets", {
      contactId,
      ...(queueId !== null ? { queueId } : {}),
      status: "open",
      userId: me.id,
    }, { quiet: true });
    go(`/tickets/${ticket.uuid}`);
  } catch (error) {
    const other = otherTicketOf(error);
    if (other?.uuid && other.userId === me.id) {
      go(`/tickets/${other.uuid}`);
    } else if (other?.user?.name) {
      toast.warning({
        key: "contacts.otherTicket",
        values: { user: other.user.name, queue: other.queue?.name ?? "-" },
      }, 4000);
    } else {
      toast.error(error);
    }
  }
}
