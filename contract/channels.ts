/**
 * The WhatsApp channels a connection can use, declared once with what each can do (issue 45).
 * A connection's `provider` column holds one of these kinds; everything else (the API's
 * `capabilities`, the connections page, the composer, the outbox) asks the capabilities, never
 * the kind, so a new channel is one entry here and one implementation in
 * server/whatsapp/providers/. tests/architecture/channels_test.ts keeps the kinds' names out of
 * every other file.
 */
export type Capabilities = {
  /** Linked by scanning a QR code (or typing a pairing code) on the phone. */
  qr: boolean;
  /** Group chats arrive and can be answered. */
  groups: boolean;
  /** A sent text can be edited (15 minutes). */
  edit: boolean;
  /** A sent message can be deleted for everyone. */
  deleteForEveryone: boolean;
  /** Reactions (emoji on a message) can be sent. */
  reactions: boolean;
  /** Pre-approved message templates (the only way to write outside the window). */
  templates: boolean;
  /** Free text only within 24 hours of the contact's last message. */
  window24h: boolean;
  /** Chats can be marked read on the contact's phone. */
  readReceipts: boolean;
  /** Buttons and lists can be sent (chatbot menus). */
  interactive: boolean;
  /** Credentials (ids, tokens) are typed into the connection instead of linking a phone. */
  credentials: boolean;
  /** The built-in phone network of demos and tests (the /simulator page acts as its phones). */
  simulated: boolean;
};

/** WhatsApp Web's protocol through Baileys: a real number linked by QR. */
const BETA: Capabilities = {
  qr: true,
  groups: true,
  edit: true,
  deleteForEveryone: true,
  reactions: false,
  templates: false,
  window24h: false,
  readReceipts: false,
  interactive: false,
  credentials: false,
  simulated: false,
};

const CHANNELS = {
  /** WhatsApp Web's protocol through Baileys: a real number linked by QR. */
  beta: BETA,

  /** The built-in phone network (demos, tests). */
  simulator: { ...BETA, simulated: true },

  /** Meta's official WhatsApp Cloud API (Graph API out, signed webhooks in). */
  cloud_api: {
    qr: false,
    groups: false,
    edit: false,
    deleteForEveryone: false,
    reactions: true,
    templates: true,
    window24h: true,
    readReceipts: true,
    interactive: true,
    credentials: true,
    simulated: false,
  },
} as const satisfies Record<string, Capabilities>;

export type ChannelKind = keyof typeof CHANNELS;
export const CHANNEL_KINDS = Object.keys(CHANNELS) as ChannelKind[];
/** The kind of a connection made without saying one (a QR-linked number, as ever). */
export const DEFAULT_CHANNEL: ChannelKind = CHANNEL_KINDS[0];

export function isChannelKind(kind: string): kind is ChannelKind {
  return Object.hasOwn(CHANNELS, kind);
}

/** What a connection of this kind can do; an unknown kind (a row from a newer version) nothing. */
export function capabilitiesOf(kind: string): Capabilities {
  if (isChannelKind(kind)) return { ...CHANNELS[kind] };
  const none = { ...CHANNELS[DEFAULT_CHANNEL] } as Record<keyof Capabilities, boolean>;
  for (const key of Object.keys(none) as (keyof Capabilities)[]) none[key] = false;
  return none;
}

/**
 * The audio formats a channel takes, where it restricts them (Meta: …/business-phone-numbers/media
 * 'Supported media types'; a browser's WebM recording is refused with 131053). Kinds not listed
 * take any audio.
 */
const AUDIO_TYPES: Partial<Record<ChannelKind, readonly string[]>> = {
  cloud_api: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"],
};

/** Whether a connection of this kind sends audio of this type (parameters such as codecs aside). */
export function acceptsAudio(kind: string, mimetype: string): boolean {
  const types = isChannelKind(kind) ? AUDIO_TYPES[kind] : undefined;
  return !types || types.includes(mimetype.split(";")[0].trim().toLowerCase());
}

/** The kinds that have a capability (e.g. the simulator page lists the `simulated` ones). */
export function kindsWith(capability: keyof Capabilities): ChannelKind[] {
  return CHANNEL_KINDS.filter((kind) => CHANNELS[kind][capability]);
}

/** The table the README shows: one row per capability, one column per kind. */
export function capabilityTable(): { capability: keyof Capabilities; kinds: boolean[] }[] {
  const keys = Object.keys(CHANNELS[DEFAULT_CHANNEL]) as (keyof Capabilities)[];
  return keys.map((capability) => ({
    capability,
    kinds: CHANNEL_KINDS.map((kind) => CHANNELS[kind][capability]),
  }));
}

/** The capability table as Markdown (README 'Official WhatsApp Cloud API'; a test keeps them equal). */
export function capabilityMarkdown(): string {
  const yes = (v: boolean) => (v ? "yes" : "no");
  const head = `| capability | ${CHANNEL_KINDS.map((k) => `\`${k}\``).join(" | ")} |`;
  const rule = `| --- | ${CHANNEL_KINDS.map(() => "---").join(" | ")} |`;
  const rows = capabilityTable().map((r) =>
    `| ${r.capability} | ${r.kinds.map(yes).join(" | ")} |`
  );
  return [head, rule, ...rows].join("\n");
}

/**
 * GET /api/messages/:ticketId/window: whether free text may go now (issue 45 item 6). On a channel
 * without the window `window24h` is false and `open` true; otherwise `closesAt` is 24 hours after
 * the contact's last message (null: the contact never wrote) and, when the channel sends
 * templates, the approved ones the composer offers instead.
 */
export type ConversationWindow = {
  window24h: boolean;
  open: boolean;
  closesAt: string | null;
  templates: WindowTemplate[];
};

/** An approved template as the composer fills it: `parameters` body variables {{1}}..{{n}}. */
export type WindowTemplate = {
  name: string;
  language: string;
  category: string;
  parameters: number;
  body: string;
};

/**
 * A chatbot menu's choice (issue 45): `id` is what the contact would type ("1", "#"), so a
 * tapped button or list row routes exactly like the typed answer.
 */
export type MenuChoice = { id: string; title: string };

/**
 * A template send as campaigns, schedules and the outbox keep it (JSON in their `template`
 * columns): body parameters {{1}}..{{n}} in order.
 */
export type SendTemplate = { name: string; language: string; parameters: string[] };

/** A stored template (JSON column) back as an object; null when none. */
export function parseSendTemplate(json: string | null): SendTemplate | null {
  if (!json) return null;
  const t = JSON.parse(json) as SendTemplate;
  return { name: t.name, language: t.language, parameters: [...(t.parameters ?? [])] };
}
