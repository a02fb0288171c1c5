/** See burn-cpu.mjs. */
export function burnCpu(shouldStop: () => boolean): number;
