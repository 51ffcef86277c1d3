import type { AppDeps } from "../context.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";

/**
 * The pairing code of a connection whose session runs in this process (service.ts
 * requestPairingCode reaches it through holder_calls.ts): only while the session waits to be
 * linked (OPENING or qrcode).
 */
export async function pairingCodeHere(
  deps: AppDeps,
  id: number,
  digits: string,
): Promise<string> {
  const provider = deps.sessions.provider(id);
  const status = deps.sessions.status(id);
  if (!provider || (status !== "qrcode" && status !== "OPENING")) {
    throw new AppError(
      409,
      "ERR_WAPP_NOT_INITIALIZED",
      "A conexão não está aguardando leitura: inicie a sessão antes de pedir o código",
    );
  }
  try {
    return await provider.requestPairingCode(digits);
  } catch (error) {
    log.warn("pairing code refused", { whatsappId: id, error });
    throw new AppError(
      409,
      "ERR_WAPP_NOT_INITIALIZED",
      "Não foi possível gerar o código de pareamento; tente um novo QR Code",
    );
  }
}
