import { createServer, type Server } from 'node:http';
import { type AddressGate, type GateOptions, installAddressGate } from './address-gate.ts';
import type { AppHandle } from './app.ts';

/**
 * The one way the API listens: an HTTP server over the app with the address gate in front of Express
 * (api/core/address-gate.ts). The server (api/server.ts) and the tests' harness (createTestApp) both build it here.
 */
export function createApiServer(handle: AppHandle, gateOptions: GateOptions = {}): { server: Server; gate: AddressGate } {
  const server = createServer();
  const gate = installAddressGate(server, handle.app, handle.auth, gateOptions);
  return { server, gate };
}
