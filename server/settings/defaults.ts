/** Settings every company starts with (seeds/001 sections 2 and 3). */
export const DEFAULT_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  userRating: "disabled",
  scheduleType: "disabled",
  CheckMsgIsGroup: "enabled",
  call: "disabled",
  chatBotType: "text",
  sendGreetingAccepted: "disabled",
  greetingAcceptedMessage: "",
  sendMsgTransfTicket: "disabled",
  userCreation: "enabled",
  campaignsEnabled: "true",
  ipixc: "",
  tokenixc: "",
  ipmkauth: "",
  clientidmkauth: "",
  clientsecretmkauth: "",
  asaas: "",
  // Issue 24 item 6: the zone of the company's clock (contract/time_zone.ts).
  timeZone: "America/Sao_Paulo",
  twoFactorRequired: "disabled",
  multipleSessions: "disabled",
  superTwoFactor: "disabled",
  // Issue 48: the attendant's assistant is off until an admin turns a feature on (a customer's
  // voice and words go to an outside service only by the company's choice).
  assistTranscription: "disabled",
  assistSummary: "disabled",
  assistSuggestions: "disabled",
  assistBaseUrl: "",
  assistApiKey: "",
  assistModel: "",
  assistTranscriptionModel: "",
  assistMonthlyCap: "0",
});
