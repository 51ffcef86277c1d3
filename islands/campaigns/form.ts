import { CONFIRMATION_FIELDS, MESSAGE_FIELDS } from "../../contract/campaign_rules.ts";
import type { CampaignView } from "../../contract/campaign_types.ts";
import { templateKey, templateOfKey } from "../lib/ui/TemplateFields.tsx";

/** The campaign dialog's values as typed (strings; "none" for no selection). */
export type CampaignForm = Record<string, string> & {
  name: string;
  whatsappId: string;
  contactListId: string;
  tagListId: string;
  fileListId: string;
  /** datetime-local: YYYY-MM-DDTHH:mm */
  scheduledAt: string;
  /** Issue 45: the approved template's key (name:language), "" for free text. */
  template: string;
  /** Its body variables as typed (JSON array of strings; may hold {nome} and the like). */
  templateParameters: string;
};

export const NONE = "none";

export function emptyForm(): CampaignForm {
  const form: CampaignForm = {
    name: "",
    whatsappId: NONE,
    contactListId: NONE,
    tagListId: NONE,
    fileListId: NONE,
    scheduledAt: "",
    template: "",
    templateParameters: "[]",
  };
  for (const f of [...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS]) form[f] = "";
  return form;
}

/** A stored campaign as the dialog shows it; `input`: an instant on the company's clock. */
export function formOf(c: CampaignView, input: (iso: string) => string): CampaignForm {
  const form = emptyForm();
  form.name = c.name;
  form.whatsappId = c.whatsappId === null ? NONE : String(c.whatsappId);
  form.contactListId = c.contactListId === null ? NONE : String(c.contactListId);
  form.tagListId = c.tagListId === null ? NONE : String(c.tagListId);
  form.fileListId = c.fileListId === null ? NONE : String(c.fileListId);
  form.scheduledAt = c.scheduledAt ? input(c.scheduledAt) : "";
  form.template = c.template ? templateKey(c.template) : "";
  form.templateParameters = JSON.stringify(c.template?.parameters ?? []);
  for (const f of [...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS]) form[f] = c[f] ?? "";
  return form;
}

/**
 * seeds/002 section 5: empty strings are sent as null, scheduledAt as YYYY-MM-DD HH:mm:ss, the
 * time as typed on the company's clock (the server reads it in the company's zone).
 */
export function bodyOf(form: CampaignForm, confirmation: boolean) {
  const text = (v: string) => (v.trim() === "" ? null : v);
  const ref = (v: string) => (v === NONE || v === "" ? null : Number(v));
  const body: Record<string, unknown> = {
    name: form.name.trim(),
    confirmation,
    whatsappId: ref(form.whatsappId),
    contactListId: ref(form.contactListId),
    tagListId: ref(form.tagListId),
    fileListId: ref(form.fileListId),
    scheduledAt: form.scheduledAt ? `${form.scheduledAt.replace("T", " ").slice(0, 16)}:00` : null,
  };
  for (const f of [...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS]) body[f] = text(form[f]);
  const template = templateOfKey(form.template);
  body.template = template
    ? {
      ...template,
      parameters: (JSON.parse(form.templateParameters) as string[]).map((v) => v.trim()),
    }
    : null;
  return body;
}
