import type { DropInWire } from './drop-in.types';
import type { MirrorAccess } from './mirror-access';
import type { MirrorSocketRoute } from './mirror-socket.types';
import type { VendorId } from './vendor-id';

/**
 * What a vendor's mirror app serves, all of it from the vendor's folder (libs/mirror runs it): the key and refusal shapes (`access`), the
 * REST and HTTP-stream endpoints as whole-request takes (`dropIn`) and the sockets (`sockets`, per sentence).
 */
export interface VendorMirror {
  readonly vendor: VendorId;
  readonly access: MirrorAccess;
  readonly dropIn: DropInWire;
  readonly sockets: readonly MirrorSocketRoute[];
}
