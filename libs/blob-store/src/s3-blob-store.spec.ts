import { S3BlobStore, parseS3Endpoint } from './s3-blob-store';

describe('parseS3Endpoint', () => {
  it.each([
    ['http://127.0.0.1:4569', { endPoint: '127.0.0.1', port: 4569, useSSL: false }],
    ['http://minio.svc/', { endPoint: 'minio.svc', port: 80, useSSL: false }],
    ['https://s3.example.internal', { endPoint: 's3.example.internal', port: 443, useSSL: true }],
    ['https://[::1]:9000', { endPoint: '::1', port: 9000, useSSL: true }],
  ])('reads %s', (endpoint, expected) => {
    expect(parseS3Endpoint(endpoint)).toEqual(expected);
  });

  it.each(['127.0.0.1:4569', 'ftp://host', 'http://host/bucket', 'http://host/?a=1', 'http://u:p@host'])(
    'refuses %s',
    (endpoint) => {
      expect(() => parseS3Endpoint(endpoint)).toThrow(/S3 endpoint/);
    },
  );
});

describe('S3BlobStore options', () => {
  const base = { endpoint: 'http://127.0.0.1:4569', accessKey: 'k', secretKey: 's', bucket: 'audio-cache' };

  it.each([0, 1001, 2.5])('refuses listPageSize %s', (listPageSize) => {
    expect(() => new S3BlobStore({ ...base, listPageSize })).toThrow(/listPageSize/);
  });

  it('accepts the page sizes S3 allows', () => {
    expect(() => new S3BlobStore({ ...base, listPageSize: 1 })).not.toThrow();
    expect(() => new S3BlobStore({ ...base, listPageSize: 1000 })).not.toThrow();
  });
});
