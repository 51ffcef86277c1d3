/** Settings every company starts with (seeds/001 sections 2 and 3). */
export const DEFAULT_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  userRating: "disabled",
  scheduleType: "disabled",
  CheckMsgIsGroup: "enabled",
  call: "disabled",
  chatBotType: "text",
  sendGreetingAccepted: "disabled",
  sendMsgTransfTicket: "disabled",
  userCreation: "enabled",
  campaignsEnabled: "true",
  ipixc: "",
  tokenixc: "",
  ipmkauth: "",
  clientidmkauth: "",
  clientsecretmkauth: "",
  asaas: "",
});
