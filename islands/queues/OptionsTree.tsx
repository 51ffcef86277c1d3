import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import CornerDownRight from "lucide-react/icons/corner-down-right";
import Paperclip from "lucide-react/icons/paperclip";
import Pencil from "lucide-react/icons/pencil";
import Plus from "lucide-react/icons/plus";
import Trash2 from "lucide-react/icons/trash-2";
import X from "lucide-react/icons/x";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { useRealtime } from "../lib/socket.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { ConfirmDialog } from "../lib/ui/ConfirmDialog.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import type { QueueOption, QueueOptionNode } from "../../contract/queue_types.ts";

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
  const [answer, setAnswer] = useState(option?.option ?? nextOptionNumber(siblings));
  const [title, setTitle] = useState(option?.title ?? "");
  const [message, setMessage] = useState(option?.message ?? "");
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The option form lives inside the queue form: its submit must not reach the queue's.
    event.stopPropagation();
    const local: Record<string, string> = {};
    if (!answer.trim()) local.option = t("queues.errors.required");
    else if (answer.trim() === "#") local.option = t("queues.options.hashReserved");
    else if (
      siblings.some((s) => s.id !== option?.id && s.option.trim() === answer.trim())
    ) local.option = t("queues.options.duplicate", { option: answer.trim() });
    if (!title.trim()) local.title = t("queues.errors.required");
    setErrors(local);
    if (Object.keys(local).length) return;
    setSaving(true);
    try {
      const body = { title: title.trim(), message, option: answer.trim(), queueId, parentId };
      let saved = option
        ? await api.put<QueueOption>(`/queue-options/${option.id}`, body, { quiet: true })
        : await api.post<QueueOption>("/queue-options", body, { quiet: true });
      if (file) {
        const form = new FormData();
        form.append("file", file);
        saved = await api.post<QueueOption>(`/queue-options/${saved.id}/media-upload`, form);
      } else if (dropMedia && option?.mediaName) {
        saved = await api.delete<QueueOption>(`/queue-options/${saved.id}/media-upload`);
      }
      toast.success({ key: "queues.options.saved" });
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) {
        setErrors(Object.fromEntries(
          Object.entries(error.fields).map(([field, messages]) => [field, messages[0] ?? ""]),
        ));
      } else if (error instanceof ApiError && error.status === 409) {
        setErrors({ option: error.message });
      } else {
        toast.error(error);
      }
    } finally {
      setSaving(false);
    }
  };

  const formId = `option-form-${option?.id ?? `new-${parentId ?? "root"}`}`;
  const currentMedia = file?.name ?? (dropMedia ? null : option?.mediaName ?? null);

  return (
    <form
      id={formId}
      className="option-form"
      onSubmit={submit}
      noValidate
      data-testid="option-form"
      aria-label={option ? t("queues.options.editTitle") : t("queues.options.newTitle")}
    >
      <div className="option-form-row">
        <Field
          label={t("queues.options.option")}
          name="option"
          className="option-answer"
          value={answer}
          maxLength={20}
          onChange={(e) => setAnswer(e.target.value)}
          error={errors.option}
        />
        <Field
          autoFocus
          label={t("queues.options.titleField")}
          name="title"
          value={title}
          maxLength={100}
          onChange={(e) => setTitle(e.target.value)}
          error={errors.title}
        />
      </div>
      <TextAreaField
        label={t("queues.options.message")}
        name="message"
        value={message}
        rows={2}
        onChange={(e) => setMessage(e.target.value)}
        error={errors.message}
        hint={t("queues.options.messageHint")}
      />
      <div className="option-form-footer">
        <div className="attach">
          {currentMedia
            ? (
              <span className="attach-name">
                <Paperclip size={14} aria-hidden="true" />
                {currentMedia}
                <IconButton
                  label={t("queues.media.remove")}
                  className="attach-remove"
                  onClick={() => {
                    setFile(null);
                    setDropMedia(true);
                  }}
                >
                  <X size={14} aria-hidden="true" />
                </IconButton>
              </span>
            )
            : (
              <label className="btn btn-ghost attach-pick">
                <Paperclip size={16} aria-hidden="true" />
                {t("queues.media.attach")}
                <input
                  type="file"
                  className="visually-hidden"
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    e.target.value = "";
                  }}
                />
              </label>
            )}
        </div>
        <div className="option-form-buttons">
          <Button variant="ghost" onClick={onCancel} disabled={saving}>
            {t("common.cancel")}
          </Button>
          <Button variant="primary" type="submit" loading={saving} data-testid="option-save">
            {t("queues.options.save")}
          </Button>
        </div>
      </div>
    </form>
  );
}
