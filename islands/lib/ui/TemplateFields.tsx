import { useTranslation } from "react-i18next";
import type { WindowTemplate } from "../../../contract/channels.ts";
import { Field } from "./Field.tsx";
import { SelectField } from "./Select.tsx";

/** A template's key in a select: name and language (a name may exist in several languages). */
export const templateKey = (t: { name: string; language: string }) => `${t.name}:${t.language}`;

/** The name and language of a select's key. */
export function templateOfKey(key: string): { name: string; language: string } | null {
  const at = key.lastIndexOf(":");
  return at > 0 ? { name: key.slice(0, at), language: key.slice(at + 1) } : null;
}

/** The template's body with its variables filled ({{n}} -> the n-th value; blank ones shown). */
export function filledTemplate(body: string, values: string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n) => values[Number(n) - 1] || whole);
}

/**
 * Picking an approved template and filling its body variables (issue 45): the composer past the
 * 24-hour window fills them with words, the campaign form with the recipient's variables
 * ({nome}). Shows the body as it will read.
 */
export function TemplateFields(
  { templates, chosen, onChoose, values, onValues, error, disabled }: {
    templates: WindowTemplate[];
    chosen: string;
    onChoose: (key: string) => void;
    values: string[];
    onValues: (values: string[]) => void;
    error?: string;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  const template = templates.find((x) => templateKey(x) === chosen) ?? null;
  return (
    <>
      <SelectField
        label={t("tickets.window.template")}
        name="template"
        value={chosen}
        placeholder={t("tickets.window.choose")}
        onValueChange={onChoose}
        error={error}
        disabled={disabled}
        options={templates.map((x) => ({
          value: templateKey(x),
          label: `${x.name} (${x.language})`,
        }))}
      />
      {template
        ? (
          <>
            {values.map((value, i) => (
              <Field
                key={i}
                label={t("tickets.window.variable", { n: i + 1 })}
                name={`variable-${i + 1}`}
                value={value}
                disabled={disabled}
                onChange={(e) => onValues(values.map((v, j) => j === i ? e.target.value : v))}
              />
            ))}
            <p className="mi-window-preview" data-testid="template-preview">
              {filledTemplate(template.body, values)}
            </p>
          </>
        )
        : null}
    </>
  );
}
