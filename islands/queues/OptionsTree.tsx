import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { useRealtime } from "../lib/socket.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { ConfirmDialog } from "../lib/ui/ConfirmDialog.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { AttachmentField } from "../lib/ui/AttachmentField.tsx";
import { type Problem, saveRecord } from "../lib/list/form_submit.ts";
import { useRecordForm } from "../lib/list/record_form.ts";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import type { QueueOption, QueueOptionNode } from "../../contract/queue_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const CornerDownRight = icon("corner-down-right");
const Paperclip = icon("paperclip");
const Pencil = icon("pencil");
const Plus = icon("plus");
const Trash2 = icon("trash-2");

/**
 * The chatbot options tree editor of the queue dialog (seeds/001 sections 2 and 3 'Queue
 * option'): root options, children under any option, nested by parent. Every change is saved at
 * once through /api/queue-options (the inbound pipeline walks this tree: the contact answers an
 * option's number and moves to its children; a leaf routes the ticket to the queue).
 *
 * A queue that does not exist yet has no options: `ensureQueue` saves it first (the dialog's data
 * tab save) and answers its id, or null when that save failed.
 */
export function OptionsTree(
  { queueId, ensureQueue }: {
    queueId: number | null;
    ensureQueue: () => Promise<number | null>;
  },
) {
  const { t } = useTranslation();
  const [roots, setRoots] = useState<QueueOptionNode[]>([]);
  const [loading, setLoading] = useState(queueId !== null);
  /** The one open form: a new option under `parentId` (null = root) or an edit of `id`. */
  const [editing, setEditing] = useState<
    { kind: "new"; parentId: number | null } | { kind: "edit"; id: number } | null
  >(null);
  const [deleting, setDeleting] = useState<QueueOptionNode | null>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const load = useCallback(async () => {
    if (queueId === null) return;
    try {
      setRoots(
        await api.get<QueueOptionNode[]>("/queue-options/tree", { query: { queueId } }),
      );
    } finally {
      setLoading(false);
    }
  }, [queueId]);

  useEffect(() => {
    load().catch(() => {});
    return () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
    };
  }, [load]);

  // Another admin editing the same tree: follow along (a short debounce joins bursts).
  useRealtime("queue", (event) => {
    if (queueId === null) return;
    const ofThisQueue = (event.action === "optionCreate" || event.action === "optionUpdate")
      ? event.option.queueId === queueId
      : event.action === "optionDelete" && event.queueId === queueId;
    if (!ofThisQueue) return;
    if (reloadTimer.current) clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => load().catch(() => {}), 250);
  });

  const startNew = async (parentId: number | null) => {
    if (queueId === null && (await ensureQueue()) === null) return;
    setEditing({ kind: "new", parentId });
  };

  const saved = () => {
    setEditing(null);
    load().catch(() => {});
  };

  const remove = async (node: QueueOptionNode) => {
    await api.delete(`/queue-options/${node.id}`);
    toast.success({ key: "queues.options.deleted" });
    if (editing?.kind === "edit" && editing.id === node.id) setEditing(null);
    await load();
  };

  const renderLevel = (
    nodes: QueueOptionNode[],
    parent: QueueOptionNode | null,
    path: string,
  ) => (
    <ol className={parent ? "options-level options-children" : "options-level"}>
      {nodes.map((node) => {
        const nodePath = path ? `${path}.${node.option}` : node.option;
        const isEditing = editing?.kind === "edit" && editing.id === node.id;
        const addingHere = editing?.kind === "new" && editing.parentId === node.id;
        return (
          <li key={node.id} className="option-node">
            {isEditing
              ? (
                <OptionForm
                  queueId={queueId!}
                  parentId={node.parentId}
                  option={node}
                  siblings={nodes}
                  onCancel={() => setEditing(null)}
                  onSaved={saved}
                />
              )
              : (
                <div className="option-row" data-testid="option-item" data-path={nodePath}>
                  <span className="option-number" aria-hidden="true">{node.option}</span>
                  <div className="option-text">
                    <span className="option-title">
                      <span className="visually-hidden">{node.option} -</span>
                      {node.title}
                    </span>
                    {node.message ? <span className="option-message">{node.message}</span> : null}
                    {node.mediaName
                      ? (
                        <span className="option-media">
                          <Paperclip size={12} aria-hidden="true" /> {node.mediaName}
                        </span>
                      )
                      : null}
                  </div>
                  <div className="option-actions">
                    <IconButton
                      label={t("queues.options.addChild", { title: node.title })}
                      onClick={() => startNew(node.id)}
                    >
                      <CornerDownRight size={16} aria-hidden="true" />
                    </IconButton>
                    <IconButton
                      label={t("queues.options.edit", { title: node.title })}
                      onClick={() => setEditing({ kind: "edit", id: node.id })}
                    >
                      <Pencil size={16} aria-hidden="true" />
                    </IconButton>
                    <IconButton
                      label={t("queues.options.delete", { title: node.title })}
                      className="icon-danger"
                      onClick={() => setDeleting(node)}
                    >
                      <Trash2 size={16} aria-hidden="true" />
                    </IconButton>
                  </div>
                </div>
              )}
            {node.children.length > 0 || addingHere
              ? (
                <div className="option-children-wrap">
                  {node.children.length > 0 ? renderLevel(node.children, node, nodePath) : null}
                  {addingHere
                    ? (
                      <OptionForm
                        queueId={queueId!}
                        parentId={node.id}
                        siblings={node.children}
                        onCancel={() => setEditing(null)}
                        onSaved={saved}
                      />
                    )
                    : null}
                </div>
              )
              : null}
          </li>
        );
      })}
    </ol>
  );

  const addingRoot = editing?.kind === "new" && editing.parentId === null;

  return (
    <section className="options-tree" aria-labelledby="options-tree-title">
      <div className="options-header">
        <div>
          <h3 id="options-tree-title" className="options-heading">{t("queues.options.title")}</h3>
          <p className="options-hint">{t("queues.options.hint")}</p>
        </div>
      </div>
      {loading
        ? <div className="skeleton options-skeleton" aria-busy="true" />
        : roots.length === 0 && !addingRoot
        ? (
          <p className="options-empty">
            {queueId === null ? t("queues.options.saveFirst") : t("queues.options.empty")}
          </p>
        )
        : renderLevel(roots, null, "")}
      {addingRoot
        ? (
          <OptionForm
            queueId={queueId!}
            parentId={null}
            siblings={roots}
            onCancel={() => setEditing(null)}
            onSaved={saved}
          />
        )
        : null}
      {!addingRoot
        ? (
          <Button
            variant="secondary"
            className="options-add"
            onClick={() => startNew(null)}
            data-testid="option-add-root"
          >
            <Plus size={16} aria-hidden="true" />
            {t("queues.options.add")}
          </Button>
        )
        : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("queues.options.deleteTitle", { title: deleting?.title ?? "" })}
        danger
        description={
          <>
            {t("queues.deleteMessage")}
            {deleting && deleting.children.length > 0
              ? <>{t("queues.options.deleteChildren")}</>
              : null}
          </>
        }
        confirmLabel={t("common.delete")}
        onConfirm={() => deleting && remove(deleting)}
      />
    </section>
  );
}

/** The answer the next option at a level gets: one more than the highest number there. */
export function nextOptionNumber(siblings: readonly { option: string }[]): string {
  const numbers = siblings.map((s) => Number(s.option)).filter((n) => Number.isInteger(n));
  return String(numbers.length ? Math.max(...numbers) + 1 : siblings.length + 1);
}

/** The server's 'an option with that answer is already at this level' is the answer's problem. */
async function saveOption(path: string, id: number | null, body: unknown): Promise<QueueOption> {
  try {
    return await saveRecord<QueueOption>(path, id, body);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "ERR_CONFLICT") throw error;
    throw new ApiError(error.status, "ERR_VALIDATION", error.message, error.fields);
  }
}

/** The inline form of one option: answer number, title, message and an attachment. */
function OptionForm(
  { queueId, parentId, option, siblings, onCancel, onSaved }: {
    queueId: number;
    parentId: number | null;
    option?: QueueOption;
    siblings: readonly QueueOption[];
    onCancel: () => void;
    onSaved: (option: QueueOption) => void;
  },
) {
  const { t } = useTranslation();
  const form = useRecordForm({
    open: true,
    onOpenChange: (open) => !open && onCancel(),
    id: option?.id ?? null,
    record: option ?? null,
    onSaved,
  }, {
    path: "/queue-options",
    empty: { option: nextOptionNumber(siblings), title: "", message: "" },
    validate: ({ option: answer, title }) => {
      const problems: Record<string, Problem> = {};
      const value = answer.trim();
      if (!value) problems.option = "queues.errors.required";
      else if (value === "#") problems.option = "queues.options.hashReserved";
      else if (siblings.some((s) => s.id !== option?.id && s.option.trim() === value)) {
        problems.option = { key: "queues.options.duplicate", values: { option: value } };
      }
      if (!title.trim()) problems.title = "queues.errors.required";
      return problems;
    },
    body: (v) => ({
      title: v.title.trim(),
      message: v.message,
      option: v.option.trim(),
      queueId,
      parentId,
    }),
    save: saveOption,
    file: { stored: (o) => o.mediaName ?? null },
    successKey: "queues.options.saved",
    admin: true,
  });

  return (
    <form
      id={`option-form-${option?.id ?? `new-${parentId ?? "root"}`}`}
      className="option-form"
      onSubmit={form.onSubmit}
      noValidate
      data-testid="option-form"
      aria-label={option ? t("queues.options.editTitle") : t("queues.options.newTitle")}
    >
      <div className="option-form-row">
        <Field
          label={t("queues.options.option")}
          className="option-answer"
          maxLength={20}
          {...form.field("option")}
        />
        <Field
          autoFocus
          label={t("queues.options.titleField")}
          maxLength={100}
          {...form.field("title")}
        />
      </div>
      <TextAreaField
        label={t("queues.options.message")}
        rows={2}
        hint={t("queues.options.messageHint")}
        {...form.field("message")}
      />
      <div className="option-form-footer">
        <AttachmentField
          attachment={form.attachment}
          pickLabel={t("queues.media.attach")}
          removeLabel={t("queues.media.remove")}
          testId="option-media"
        />
        <div className="option-form-buttons">
          <Button variant="ghost" onClick={onCancel}>{t("common.cancel")}</Button>
          <Button variant="primary" type="submit" loading={form.saving} data-testid="option-save">
            {t("queues.options.save")}
          </Button>
        </div>
      </div>
    </form>
  );
}
