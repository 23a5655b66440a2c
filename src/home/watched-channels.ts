/**
 * The hook for watched channels (`/agent channel investigate on|off`, DESIGN "Alert
 * investigations"): the admins' App Home lists them when a source is wired in the composition
 * root. None is wired until the alert investigations land; the home then says so.
 */
export interface WatchedChannels {
  /** Channel ids whose integration posts are investigated. */
  list(): Promise<string[]>;
}
