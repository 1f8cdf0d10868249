// The deploy-time migration job: `DATABASE_URL=postgresql://… node dist/tools/migrate/main.js` applies the
// router's pending migrations and exits 0, or prints why not and exits 1. Services never migrate a shared
// PostgreSQL themselves.
import { runMigrate } from './migrate.command';

void runMigrate(process.env, console).then((code) => {
  process.exitCode = code;
});
