/** Timeouts come from the gateway's clock; the MCP SDK's real-time timer is set beyond any of them. */
export const SDK_TIMEOUT_MS = 2_147_483_647;
