import type { DropInWire, MirrorAccess, MirrorSocketRoute, VendorId } from '@router/vendors-core';

/**
 * What a mirror app serves, all of it from the vendor's folder: the key and refusal shapes (`access`), the
 * REST and HTTP-stream endpoints as whole-request takes (`dropIn`) and the sockets (`sockets`, per sentence).
 */
export interface VendorMirror {
  readonly vendor: VendorId;
  readonly access: MirrorAccess;
  readonly dropIn: DropInWire;
  readonly sockets: readonly MirrorSocketRoute[];
}
