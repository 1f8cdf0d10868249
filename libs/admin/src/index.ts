export * from './admin.module';
export * from './admin.service';
export * from './admin.dto';
export * from './members.service';
export * from './session.guard';
export * from './audit';
