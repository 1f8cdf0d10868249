export * from './admin.module';
export * from './admin.service';
export * from './admin.dto';
