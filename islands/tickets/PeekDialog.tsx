import * as Dialog from "radix-ui/dialog";
import { useTranslation } from "react-i18next";
import { Avatar } from "./bits.tsx";
import { MessageList } from "./MessageList.tsx";
import type { Ticket } from "../../contract/ticket_types.ts";
import { useMessages } from "./use_messages.ts";
import { icon } from "../lib/ui/icon.tsx";

const Eye = icon("eye");
const X = icon("x");

const noop = () => {};

/**
 * The admins' peek (seeds/000 section 2: the spy icon): a ticket's conversation, read-only,
 * without opening it; its unread messages stay unread (GET /api/messages with peek).
 */
export default function PeekDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const conversation = useMessages(ticket.id, true);
  const name = ticket.contact?.name || ticket.contact?.number || `#${ticket.id}`;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content pk" data-testid="peek-dialog">
          <div className="pk-head">
            <Avatar name={name} src={ticket.contact?.profilePicUrl} size={36} />
            <div className="pk-title">
              <Dialog.Title className="dialog-title">{name}</Dialog.Title>
              <Dialog.Description className="pk-sub">
                <Eye size={13} aria-hidden="true" />
                {t("tickets.peek.subtitle", { id: ticket.id })}
              </Dialog.Description>
            </div>
            <Dialog.Close className="icon-btn" aria-label={t("common.close")}>
              <X size={18} aria-hidden="true" />
            </Dialog.Close>
          </div>
          <MessageList
            conversation={conversation}
            contactName={name}
            readOnly
            onReply={noop}
            onDelete={noop}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
