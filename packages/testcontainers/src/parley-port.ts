/** The port the image listens on (`PORT`), mapped to a free one of the host. */
export const PARLEY_PORT = 4010;
