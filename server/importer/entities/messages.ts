import type { Entity } from "../engine.ts";
import { copyMedia } from "../media.ts";
import { messagesDerived } from "../derived_repository.ts";
import { setQuoted } from "../repository.ts";
import { companyCol, companyOf, flag, only, stamps, state, str } from "./shared.ts";

const PLACEHOLDER = "📎 arquivo não encontrado na importação";

/**
 * ticketz keys a message by its WhatsApp id AND its ticket (since 20240418173900: the same id may
 * be in two tickets), and its quote names only the quoted id: the quoted message is the one of the
 * same ticket, else the newest ticket's.
 */
const TICKETZ_KEYS = `, m."ticketId" || '/' || m."id" AS "_key",
  (SELECT q."ticketId" || '/' || q."id" FROM "Messages" q WHERE q."id" = m."quotedMsgId"
    ORDER BY (q."ticketId" = m."ticketId") DESC, q."ticketId" DESC LIMIT 1) AS "_quoted"`;

export const MESSAGES: Entity = {
  kind: "messages",
  table: "messages",
  // By time then id: a quoted message comes before the answer that quotes it.
  query: (ctx) => {
    const o = only(ctx, "m");
    return Promise.resolve({
      sql: `SELECT m.*, ${companyCol(ctx, "m")} AS "_company", t."whatsappId" AS "_whatsapp"${
        ctx.source.info.system === "ticketz" ? TICKETZ_KEYS : ""
      }
        FROM "Messages" m JOIN "Tickets" t ON t."id" = m."ticketId"
        WHERE ${o.where} ORDER BY m."createdAt", m."id"`,
      params: o.params,
    });
  },
  key: (r) => String(r._key ?? r.id),
  company: (row, ctx) =>
    state(ctx).multi ? companyOf(ctx, row._company ?? row.companyId) : state(ctx).single,
  refs: (r) => ({
    ticket: ["tickets", r.ticketId],
    contact: ["contacts", r.contactId],
    whatsapp: ["whatsapps", r._whatsapp],
    quoted: ["messages", r._key ? r._quoted : r.quotedMsgId],
  }),
  build: async (row, ctx, refs, companyId, mappedId) => {
    const ticketId = refs.get("ticket");
    if (ticketId === null) return { skip: "its ticket is not imported" };
    let body = str(row.body);
    let media: { mediaUrl: string | null; mediaMimetype: string | null; mediaName: string | null } =
      { mediaUrl: null, mediaMimetype: null, mediaName: null };
    // An update (an ack, an edit) keeps the file the first import stored.
    const mediaUrl = row.mediaUrl && mappedId === null ? String(row.mediaUrl) : "";
    if (mediaUrl) {
      const m = state(ctx).media;
      if (!m) ctx.note(companyId, "messages", "media not copied (no --media)");
      else {
        const copied = await copyMedia(m.config, m.dir, companyId, mediaUrl, row._company);
        if (copied === "missing") {
          ctx.note(companyId, "messages", "media file missing (message kept with a placeholder)");
          body = body ? `${PLACEHOLDER}: ${body}` : PLACEHOLDER;
        } else {media = {
            mediaUrl: copied.path,
            mediaMimetype: copied.mimetype,
            mediaName: copied.name,
          };}
      }
    }
    const quoted = refs.get("quoted");
    if (row.quotedMsgId && quoted === null) {
      (state(ctx).pendingQuotes ??= []).push({
        self: String(row._key ?? row.id),
        quoted: String(row._key ? row._quoted : row.quotedMsgId),
        companyId,
      });
    }
    const fromMe = flag(row.fromMe);
    const mediaType = row.mediaType && row.mediaType !== "chat" ? String(row.mediaType) : null;
    return {
      values: {
        companyId,
        ticketId,
        contactId: fromMe ? null : refs.get("contact"),
        whatsappId: refs.get("whatsapp"),
        wid: String(row.id),
        remoteJid: row.remoteJid ? String(row.remoteJid) : null,
        participant: row.participant ? String(row.participant) : null,
        body,
        fromMe,
        mediaType,
        ...(mappedId === null ? media : {}),
        isDeleted: flag(row.isDeleted),
        isEdited: flag(row.isEdited),
        ack: Number(row.ack ?? 0),
        read: flag(row.read),
        quotedMsgId: quoted,
        dataJson: row.dataJson ? String(row.dataJson) : null,
        ...stamps(row, ctx.now),
      },
    };
  },
  derived: messagesDerived,
  // Fewer, bigger batches: each one drops and creates the insert triggers once.
  batchSize: 5000,
  freshPerBatch: true,
  // Quotes of a message of the same batch: resolved once the batch's ids are known.
  afterBatch: async (db, ctx) => {
    const pending = state(ctx).pendingQuotes ?? [];
    state(ctx).pendingQuotes = [];
    if (pending.length === 0) return;
    const fresh = ctx.fresh.get("messages")!;
    for (const p of pending) {
      const id = fresh.get(p.self), quotedMsgId = fresh.get(p.quoted);
      if (id === undefined) continue;
      if (quotedMsgId === undefined) {
        ctx.note(p.companyId, "messages", "quoted message missing (kept without the quote)");
        continue;
      }
      await setQuoted(db, p.companyId, [{ id, quotedMsgId }]);
    }
  },
};
