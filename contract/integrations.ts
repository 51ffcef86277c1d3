/**
 * Queue integrations and AI prompts (seeds/002 sections 3 and 9): the choices the dialogs offer
 * and the server accepts, declared once.
 */
export const INTEGRATION_TYPES = ["dialogflow", "n8n", "webhook", "typebot"] as const;
export type IntegrationType = typeof INTEGRATION_TYPES[number];

export const INTEGRATION_LANGUAGES = ["pt-BR", "en", "es"] as const;

/** 'texto' (answers in text only) plus 15 Brazilian Portuguese neural voices (Azure Speech). */
export const PROMPT_VOICES = [
  "texto",
  "pt-BR-FranciscaNeural",
  "pt-BR-AntonioNeural",
  "pt-BR-BrendaNeural",
  "pt-BR-DonatoNeural",
  "pt-BR-ElzaNeural",
  "pt-BR-FabioNeural",
  "pt-BR-GiovannaNeural",
  "pt-BR-HumbertoNeural",
  "pt-BR-JulioNeural",
  "pt-BR-LeilaNeural",
  "pt-BR-LeticiaNeural",
  "pt-BR-ManuelaNeural",
  "pt-BR-NicolauNeural",
  "pt-BR-ValerioNeural",
  "pt-BR-YaraNeural",
] as const;

/** seeds/002 section 9: prompt and typebot defaults. */
export const PROMPT_DEFAULTS = { temperature: 1, maxTokens: 100, maxMessages: 10 } as const;
export const TYPEBOT_DEFAULTS = { typebotExpires: 1, typebotDelayMessage: 1000 } as const;

/** An AI prompt as the API answers it; apiKey and voiceKey come masked. */
export type PromptView = {
  id: number;
  name: string;
  apiKey: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  temperature: number;
  maxTokens: number;
  maxMessages: number;
  queueId: number;
  queue: { id: number; name: string } | null;
  companyId: number;
  createdAt: string;
  updatedAt: string;
};

/** A queue integration as the API answers it (the service account never comes back). */
export type IntegrationView = {
  id: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: "";
  hasJsonContent: boolean;
  serviceAccountEmail: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotUnknownMessage: string;
  /** The webhook signing secret: only in the answer for one integration (admins). */
  secret?: string;
  companyId: number;
  createdAt: string;
  updatedAt: string;
};
