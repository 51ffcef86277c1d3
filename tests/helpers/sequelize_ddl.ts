/**
 * SQL as Sequelize's migrations make it on PostgreSQL, for the importer's source fixtures (issue
 * 47): DATE is TIMESTAMP WITH TIME ZONE, every table has its two stamps, a reference names its
 * ON DELETE rule and cascades updates.
 */
export const TS = "TIMESTAMP WITH TIME ZONE";
export const STAMPS = `"createdAt" ${TS} NOT NULL, "updatedAt" ${TS} NOT NULL`;

export const fk = (table: string, onDelete: string) =>
  `INTEGER REFERENCES "${table}" ("id") ON DELETE ${onDelete} ON UPDATE CASCADE`;

export const quote = (v: string) => `'${v.replaceAll("'", "''")}'`;
