import { describe, expect, it } from 'vitest';
import { apiBaseUrl, BaseUrlError } from './base-url.js';

describe('apiBaseUrl', () => {
  it.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/v1'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/v1'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
    ['http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/v1'],
    ['http://127.0.0.1:4010/v1//', 'http://127.0.0.1:4010/v1'],
    ['  http://localhost:4010/v1 ', 'http://localhost:4010/v1'],
    ['HTTPS://API.Example.com', 'https://api.example.com/v1'],
    ['https://api.example.com:443/', 'https://api.example.com/v1'],
    ['https://api.example.com/wallet/v1', 'https://api.example.com/wallet/v1'],
    ['http://[::1]:4010', 'http://[::1]:4010/v1'],
  ])('%s → %s', (input, base) => {
    expect(apiBaseUrl(input)).toBe(base);
  });

  it.each([
    ['127.0.0.1:4010', 'does not start with http:// or https://'],
    ['localhost:4010/v1', 'does not start with http:// or https://'],
    ['', 'does not start with http:// or https://'],
    ['http://', 'is not a URL'],
    ['http://exa mple.com', 'is not a URL'],
    ['ftp://127.0.0.1/v1', 'is not an http(s) URL (ftp)'],
    ['file:///v1', 'is not an http(s) URL (file)'],
    ['http://user:pw@127.0.0.1:4010/v1', 'carries credentials'],
    ['http://127.0.0.1:4010/v1?tenant=acme', 'has a query or fragment'],
    ['http://127.0.0.1:4010/v1#users', 'has a query or fragment'],
  ])('refuses %j: %s', (input, why) => {
    expect(() => apiBaseUrl(input)).toThrow(BaseUrlError);
    expect(() => apiBaseUrl(input)).toThrow(why);
    expect(() => apiBaseUrl(input)).toThrow('such as http://127.0.0.1:4010 or http://127.0.0.1:4010/v1');
  });
});
