/** The dashboard account store's contract (dashboard-accounts/store/, issue 30) on SQLite and, when one answers, PostgreSQL. */
import { describeEachBackend, tempDatabase } from '../helpers/backends.js';
import { dashboardAccountContract } from './dashboard-account.contract.js';

describeEachBackend('dashboard account store', (backend) => {
  dashboardAccountContract(backend, () => tempDatabase(backend));
});
