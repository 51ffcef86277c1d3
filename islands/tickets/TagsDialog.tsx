import { type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { Button } from "../lib/ui/Button.tsx";
import type { TagRef, Ticket } from "../../contract/ticket_types.ts";
import { useLookup } from "../lib/use_lookup.ts";
import { icon } from "../lib/ui/icon.tsx";

const Plus = icon("plus");

/** Colours offered to a tag created here (the tags page offers the full picker). */
const TAG_COLORS = ["#0EA5E9", "#22C55E", "#F59E0B", "#EF4444", "#8B5CF6", "#EC4899", "#14B8A6"];

/**
 * The ticket's tags (seeds/000 section 7: POST /tags/sync {ticketId, tags}): every tag of the
 * company with the ticket's checked; a new tag can be created on the spot.
 */
export default function TagsDialog(
  { ticket, onClose, onSaved }: {
    ticket: Ticket;
    onClose: () => void;
    onSaved: (ticket: Ticket) => void;
  },
) {
  const { t } = useTranslation();
  const all = useLookup<TagRef>("/tags/list", "tags");
  const [created, setCreated] = useState<TagRef[]>([]);
  const [chosen, setChosen] = useState<Set<number>>(() => new Set(ticket.tags.map((g) => g.id)));
  const [name, setName] = useState("");
  const tags = [...all.items, ...created.filter((c) => !all.items.some((a) => a.id === c.id))];

  const toggle = (id: number, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const create = async () => {
    if (name.trim().length < 3) return;
    try {
      const color = TAG_COLORS[(all.items.length + created.length) % TAG_COLORS.length];
      const tag = await api.post<TagRef>("/tags", { name: name.trim(), color });
      setCreated((old) => [...old, tag]);
      toggle(tag.id, true);
      setName("");
    } catch {
      // shown by the api client
    }
  };
  // Enter in the new tag's name creates it (the dialog's form saves the ticket's tags).
  const onNameKey = (event: KeyboardEvent) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    void create();
  };

  const form = useFormSubmit({
    send: () =>
      api.post<Ticket | undefined>("/tags/sync", {
        ticketId: ticket.id,
        tags: [...chosen].map((id) => ({ id })),
      }, { quiet: true }),
    onDone: (answer) => {
      if (answer && typeof answer === "object" && "uuid" in answer) onSaved(answer);
      else onSaved({ ...ticket, tags: tags.filter((g) => chosen.has(g.id)) });
      onClose();
    },
    instant: true,
  });

  return (
    <FormDialog
      form={form}
      onOpenChange={(open) => !open && onClose()}
      title={t("tickets.tags.title")}
      width={440}
      id="ticket-tags"
      formClassName=""
      submitLabel={t("common.save")}
      submitTestId="tags-save"
    >
      <div className="tg-list" role="group" aria-label={t("tickets.tags.title")}>
        {all.ready && tags.length === 0
          ? <p className="field-hint">{t("tickets.tags.none")}</p>
          : null}
        {tags.map((tag) => (
          <label key={tag.id} className="ms-item">
            <input
              type="checkbox"
              className="tk-checkbox"
              checked={chosen.has(tag.id)}
              onChange={(e) => toggle(tag.id, e.target.checked)}
            />
            <span className="ms-dot" style={{ background: tag.color }} aria-hidden="true" />
            <span className="ms-label">{tag.name}</span>
          </label>
        ))}
      </div>
      <div className="tg-new">
        <input
          className="input"
          value={name}
          placeholder={t("tickets.tags.newPlaceholder")}
          aria-label={t("tickets.tags.newPlaceholder")}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={onNameKey}
        />
        <Button variant="secondary" onClick={create} disabled={name.trim().length < 3}>
          <Plus size={15} aria-hidden="true" />
          {t("tickets.tags.create")}
        </Button>
      </div>
    </FormDialog>
  );
}
