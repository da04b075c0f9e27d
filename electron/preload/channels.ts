/**
 * IPC channel names shared by the preload and the main process. No imports with
 * runtime cost: the sandboxed preload bundle stays free of zod.
 */
export const REQUEST_CHANNEL_PREFIX = "wb:";
export const EVENT_CHANNEL = "wb:event";

export const requestChannel = (method: string): string => `${REQUEST_CHANNEL_PREFIX}${method}`;
