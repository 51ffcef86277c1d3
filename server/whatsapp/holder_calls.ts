import type { AppDeps } from "../context.ts";
import { AppError } from "../errors.ts";
import { pairingCodeHere } from "./pairing.ts";
import {
  callFromPhone,
  editFromPhone,
  readOnPhone,
  revokeFromPhone,
  scanQr,
  sendFromPhone,
  type SimulatorMessageInput,
  simulatorState,
  unlinkPhone,
} from "./providers/simulator/service.ts";
import type { HolderCall } from "./sessions/manager.ts";

/**
 * What only the process running a connection's session can answer (issue 43 item 2d): its
 * provider's pairing code and the simulator's phones, which live next to the session. From any
 * process they are asked of the lease holder through the session commands' relay
 * (SessionManager.call -> server/redis/session_commands.ts), as start, new QR and disconnect are;
 * in one process, or for the holder itself, they run here. Each takes and answers JSON.
 */
type Input<T> = T;
const CALLS = {
  pairingCode: (d: AppDeps, _c: number, w: number, i: Input<{ digits: string }>) =>
    pairingCodeHere(d, w, i.digits),
  "simulator.state": (d: AppDeps, c: number, w: number, _i: Input<Record<never, never>>) =>
    simulatorState(d, c, w),
  "simulator.scan": (d: AppDeps, c: number, w: number, _i: Input<Record<never, never>>) =>
    scanQr(d, c, w),
  "simulator.unlink": (d: AppDeps, c: number, w: number, _i: Input<Record<never, never>>) =>
    unlinkPhone(d, c, w),
  "simulator.messages": (d: AppDeps, c: number, w: number, i: SimulatorMessageInput) =>
    sendFromPhone(d, c, w, i),
  "simulator.edit": (d: AppDeps, c: number, w: number, i: Parameters<typeof editFromPhone>[3]) =>
    editFromPhone(d, c, w, i),
  "simulator.revoke": (
    d: AppDeps,
    c: number,
    w: number,
    i: Parameters<typeof revokeFromPhone>[3],
  ) => revokeFromPhone(d, c, w, i),
  "simulator.call": (d: AppDeps, c: number, w: number, i: Parameters<typeof callFromPhone>[3]) =>
    callFromPhone(d, c, w, i),
  "simulator.read": (d: AppDeps, c: number, w: number, i: Parameters<typeof readOnPhone>[3]) =>
    readOnPhone(d, c, w, i),
};

type Calls = typeof CALLS;
export type HolderCallName = keyof Calls;

/** Runs a holder call in this process (SessionManager.runHere, set by server/deps.ts). */
export function runHolderCall(deps: AppDeps, call: HolderCall): Promise<unknown> {
  if (!Object.hasOwn(CALLS, call.name)) {
    throw new AppError(400, "ERR_VALIDATION", `unknown holder call ${call.name}`);
  }
  const run = CALLS[call.name as HolderCallName] as (
    d: AppDeps,
    c: number,
    w: number,
    i: unknown,
  ) => Promise<unknown>;
  return run(deps, call.companyId, call.whatsappId, call.input);
}

/** Asks the call of the process running the connection's session; answers its JSON. */
export async function atHolder<N extends HolderCallName>(
  deps: AppDeps,
  name: N,
  companyId: number,
  whatsappId: number,
  input: Parameters<Calls[N]>[3],
): Promise<Awaited<ReturnType<Calls[N]>>> {
  return await deps.sessions.call({ name, companyId, whatsappId, input }) as Awaited<
    ReturnType<Calls[N]>
  >;
}
