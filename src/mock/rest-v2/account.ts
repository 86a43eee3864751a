// REST v2 account SSH keys: one key set per mock (the store's sshKeys, persisted with --state). PUT
// replaces the whole set; pods created afterwards with startSsh get it as PUBLIC_KEY (pod-input.ts).
import { json, type V2Handler } from './types.js';

export const accountHandlers: Record<string, V2Handler> = {
  getSshKeys: (core) => json(200, { keys: [...core.store.sshKeys] }),
  // The schema bounds the set (64 keys of at most 16384 characters, authorized_keys lines) before this runs.
  updateSshKeys: (core, { body }) => {
    core.store.sshKeys = [...(body as { keys: string[] }).keys];
    return json(200, { keys: [...core.store.sshKeys] });
  },
};
