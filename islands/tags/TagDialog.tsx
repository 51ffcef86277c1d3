import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { HEX_COLOR_PATTERN } from "../../contract/palette.ts";
import type { TagView } from "../../contract/tag_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { LIMITS } from "../../contract/validation.ts";

const DEFAULT_COLOR = "#A4CCCC";

/**
 * Add or edit a tag (seeds/001 sections 2 'Tags list', 5, 6): name required ('Obrigatório'), at
 * least 3 characters ('Mensagem muito curta'), a colour, and the Kanban switch, shown to admins
 * only (the server refuses it from anyone else too).
 */
export function TagDialog(
  { open, onOpenChange, tagId, canKanban, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    tagId: number | null;
    canKanban: boolean;
    onSaved: (tag: TagView) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [color, setColor] = useState(DEFAULT_COLOR);
  const [kanban, setKanban] = useState(false);
  const [ticketsCount, setTicketsCount] = useState(0);
  const [loading, setLoading] = useState(false);
  const form = useFormSubmit<TagView>({
    validate: (): Record<string, string> => {
      const v = name.trim();
      if (!v) return { name: "tags.required" };
      if (v.length < LIMITS.tagName.min) return { name: "tags.tooShort" };
      if (v.length > LIMITS.tagName.max) return { name: "people.validation.tooLong" };
      if (!HEX_COLOR_PATTERN.test(color)) return { color: "tags.invalidColor" };
      return {};
    },
    send: () => {
      const body: Record<string, unknown> = { name: name.trim(), color };
      if (canKanban) body.kanban = kanban;
      return saveRecord<TagView>("/tags", tagId, body);
    },
    successKey: "tags.saved",
    admin: true,
    onDone: (saved) => {
      onSaved({ ...saved, ticketsCount: saved.ticketsCount ?? ticketsCount });
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setName("");
    setColor(DEFAULT_COLOR);
    setKanban(false);
    setTicketsCount(0);
    if (tagId === null) return;
    setLoading(true);
    api.get<TagView>(`/tags/${tagId}`).then((tag) => {
      setName(tag.name);
      setColor(tag.color);
      setKanban(tag.kanban);
      setTicketsCount(tag.ticketsCount ?? 0);
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, tagId]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={440}
      title={tagId === null ? t("tags.addTitle") : t("tags.editTitle")}
      formId="tag-form"
      form={form}
      submitLabel={tagId === null ? t("common.add") : t("common.save")}
      submitTestId="tag-submit"
      disabled={loading}
    >
      <Field label={t("tags.name")} {...form.bind("name", name, setName)} autoFocus />
      <div className="row tag-form-row">
        <Field
          label={t("tags.color")}
          type="color"
          className="tag-color-input"
          {...form.bind("color", color.length === 7 ? color : DEFAULT_COLOR, setColor)}
        />
        {canKanban
          ? (
            <label className="tag-switch">
              <input
                type="checkbox"
                role="switch"
                checked={kanban}
                onChange={(e) => setKanban(e.target.checked)}
                data-testid="tag-kanban"
              />
              <span>{t("tags.kanban")}</span>
            </label>
          )
          : null}
      </div>
    </FormDialog>
  );
}
