// A worker module that forgets to call serveToolHandler.
export const nothing = true;
