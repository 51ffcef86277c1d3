import { useTranslation } from "react-i18next";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { HEX_COLOR_PATTERN } from "../../contract/palette.ts";
import type { TagView } from "../../contract/tag_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { LIMITS } from "../../contract/validation.ts";

const DEFAULT_COLOR = "#A4CCCC";

/** seeds/001 section 5: 'Obrigatório', 'Mensagem muito curta', a hex colour. */
function tagProblems({ name, color }: { name: string; color: string }): Record<string, string> {
  const v = name.trim();
  if (!v) return { name: "tags.required" };
  if (v.length < LIMITS.tagName.min) return { name: "tags.tooShort" };
  if (v.length > LIMITS.tagName.max) return { name: "people.validation.tooLong" };
  if (!HEX_COLOR_PATTERN.test(color)) return { color: "tags.invalidColor" };
  return {};
}

/**
 * Add or edit a tag (seeds/001 sections 2 'Tags list', 5, 6): name required ('Obrigatório'), at
 * least 3 characters ('Mensagem muito curta'), a colour, and the Kanban switch, shown to admins
 * only (the server refuses it from anyone else too).
 */
export function TagDialog(
  { canKanban, onSaved, ...dialog }: RecordDialogProps<TagView> & { canKanban: boolean },
) {
  const { t } = useTranslation();
  const form = useRecordForm({
    ...dialog,
    // The answer of a save may leave the count out: the row keeps the one it had.
    onSaved: (saved) =>
      onSaved?.({ ...saved, ticketsCount: saved.ticketsCount ?? form.record?.ticketsCount ?? 0 }),
  }, {
    path: "/tags",
    empty: { name: "", color: DEFAULT_COLOR, kanban: false },
    validate: tagProblems,
    body: ({ name, color, kanban }) => ({
      name: name.trim(),
      color,
      ...(canKanban ? { kanban } : {}),
    }),
    successKey: "tags.saved",
    admin: true,
  });
  const color = form.field("color");
  return (
    <FormDialog form={form} width={440} texts="tags" id="tag">
      <Field label={t("tags.name")} {...form.field("name")} autoFocus />
      <div className="row tag-form-row">
        <Field
          label={t("tags.color")}
          type="color"
          className="tag-color-input"
          {...color}
          value={color.value.length === 7 ? color.value : DEFAULT_COLOR}
        />
        {canKanban
          ? (
            <label className="tag-switch">
              <input
                type="checkbox"
                role="switch"
                {...form.checkbox("kanban")}
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
