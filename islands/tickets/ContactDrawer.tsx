import { useEffect, useState } from "react";
import * as Dialog from "radix-ui/dialog";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useRealtime } from "../lib/socket.ts";
import { Button } from "../lib/ui/Button.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { Avatar } from "./bits.tsx";
import { ddMMyyyy, hhmm } from "./format.ts";
import { useCompanyClock } from "../lib/clock.ts";
import type { Contact, Ticket } from "../../contract/ticket_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Mail = icon("mail");
const Pencil = icon("pencil");
const Phone = icon("phone");
const Smartphone = icon("smartphone");
const X = icon("x");

const ContactDialog = whenOpen(() =>
  import("../lib/contact/ContactDialog.tsx").then((m) => m.ContactDialog)
);

/**
 * The contact side drawer (seeds/000 section 2): picture, name, number, email, extra
 * information and the ticket's connection and queue; 'edit' opens the contact form.
 */
export default function ContactDrawer(
  { contactId, ticket, onClose }: { contactId: number; ticket: Ticket; onClose: () => void },
) {
  const { t } = useTranslation();
  const zone = useCompanyClock().zone;
  const [contact, setContact] = useState<Contact | null>(null);
  const [editing, setEditing] = useState(false);

  useEffect(() => {
    api.get<Contact>(`/contacts/${contactId}`).then(setContact).catch(() => onClose());
  }, [contactId]);
  useRealtime("contact", (event) => {
    if (event.action === "update" && event.record.id === contactId) {
      const changed = event.record;
      setContact((old) => old ? { ...old, ...changed } : old);
    }
  });

  const name = contact?.name || ticket.contact?.name || "";
  const created = new Date(ticket.createdAt);
  return (
    <>
      <Dialog.Root open={!editing} onOpenChange={(open) => !open && onClose()}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay cd-overlay" />
          <Dialog.Content className="cd" data-testid="contact-drawer">
            <div className="cd-head">
              <Dialog.Title className="dialog-title">{t("tickets.contact.details")}</Dialog.Title>
              <Dialog.Close className="icon-btn" aria-label={t("common.close")}>
                <X size={18} aria-hidden="true" />
              </Dialog.Close>
            </div>
            <Dialog.Description className="visually-hidden">{name}</Dialog.Description>
            <div className="cd-card">
              <Avatar
                name={name || "?"}
                src={contact?.profilePicUrl ?? ticket.contact?.profilePicUrl}
                size={96}
              />
              <strong className="cd-name" data-testid="contact-drawer-name">{name}</strong>
              <a className="cd-line" href={`tel:+${contact?.number ?? ticket.contact?.number}`}>
                <Phone size={15} aria-hidden="true" />
                {contact?.number ?? ticket.contact?.number}
              </a>
              {contact?.email
                ? (
                  <a className="cd-line" href={`mailto:${contact.email}`}>
                    <Mail size={15} aria-hidden="true" />
                    {contact.email}
                  </a>
                )
                : null}
              {contact?.campaignOptOut
                ? (
                  <p className="field-hint" data-testid="contact-opt-out">
                    {t("tickets.contact.campaignOptOut", {
                      word: contact.campaignOptOut.word,
                      date: ddMMyyyy(new Date(contact.campaignOptOut.at), zone),
                    })}
                  </p>
                )
                : null}
              <Button
                variant="secondary"
                onClick={() => setEditing(true)}
                disabled={!contact}
                data-testid="contact-edit"
              >
                <Pencil size={15} aria-hidden="true" />
                {t("tickets.contact.edit")}
              </Button>
            </div>
            <section className="cd-section">
              <h3>{t("tickets.contact.extraInfo")}</h3>
              {contact?.extraInfo?.length
                ? (
                  <dl className="cd-extra">
                    {contact.extraInfo.map((info, index) => (
                      <div key={info.id ?? index}>
                        <dt>{info.name}</dt>
                        <dd>{info.value}</dd>
                      </div>
                    ))}
                  </dl>
                )
                : <p className="field-hint">{t("tickets.contact.noExtraInfo")}</p>}
            </section>
            <section className="cd-section">
              <h3>{t("tickets.contact.ticket")}</h3>
              <dl className="cd-extra">
                <div>
                  <dt>{t("tickets.number", { id: ticket.id })}</dt>
                  <dd>{`${ddMMyyyy(created, zone)} ${hhmm(created, zone)}`}</dd>
                </div>
                {ticket.whatsapp
                  ? (
                    <div>
                      <dt>
                        <Smartphone size={13} aria-hidden="true" /> {t("tickets.list.connection")}
                      </dt>
                      <dd>{ticket.whatsapp.name}</dd>
                    </div>
                  )
                  : null}
                <div>
                  <dt>{t("tickets.newTicket.queue")}</dt>
                  <dd>{ticket.queue?.name ?? t("tickets.noQueue")}</dd>
                </div>
              </dl>
            </section>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {contact
        ? (
          <ContactDialog
            open={editing}
            id={contact.id}
            onOpenChange={setEditing}
            onSaved={(saved) => setContact({ ...contact, ...saved })}
          />
        )
        : null}
    </>
  );
}
