import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { addressRange, checkAddress, parseTargetPolicy, selfCall, type AddressRange } from './targets.js';

describe('addressRange', () => {
  it.each<[string, AddressRange]>([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    // An IPv6 form of a link-local IPv4 address is still link-local: mapped and NAT64.
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['93.184.215.14', 'public'],
    ['172.32.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });
});

describe('checkAddress', () => {
  it.each<[string, string, string, boolean]>([
    // The default: a laptop reaches its own services and the internet, never metadata.
    ['local', '127.0.0.1', '127.0.0.1', true],
    ['local', 'localhost', '::1', true],
    ['local', '10.0.0.5', '10.0.0.5', true],
    ['local', '8.8.8.8', '8.8.8.8', true],
    ['local', '169.254.169.254', '169.254.169.254', false],
    ['local', 'fe80::1', 'fe80::1', false],
    ['local', '0.0.0.0', '0.0.0.0', false],
    // A shared host: the internet only.
    ['public', '8.8.8.8', '8.8.8.8', true],
    ['public', '127.0.0.1', '127.0.0.1', false],
    ['public', '192.168.0.10', '192.168.0.10', false],
    ['public', '::ffff:10.0.0.1', '::ffff:10.0.0.1', false],
    ['any', '169.254.169.254', '169.254.169.254', true],
    ['any', '0.0.0.0', '0.0.0.0', true],
    // Networks and host names, alone or beside a preset.
    ['10.0.0.0/8,hooks.internal', '10.9.9.9', '10.9.9.9', true],
    ['10.0.0.0/8,hooks.internal', '8.8.8.8', '8.8.8.8', false],
    ['10.0.0.0/8,hooks.internal', '127.0.0.1', '127.0.0.1', false],
    ['10.0.0.0/8,hooks.internal', 'hooks.internal', '192.168.7.7', true],
    ['10.0.0.0/8,hooks.internal', 'HOOKS.internal.', '192.168.7.7', true],
    ['10.0.0.0/8,hooks.internal', 'other.internal', '192.168.7.7', false],
    ['public,*.corp.example', 'a.b.corp.example', '10.1.1.1', true],
    ['public,*.corp.example', 'corp.example', '10.1.1.1', false],
    ['public,fd00::/8', 'fd00::5', 'fd00::5', true],
    ['public,fd00::/8', '::1', '::1', false],
    ['public,127.0.0.1', '127.0.0.1', '127.0.0.1', true],
    ['public,127.0.0.1', '127.0.0.2', '127.0.0.2', false],
    // A named host cannot reach link-local; a named network can.
    ['public,hooks.internal', 'hooks.internal', '169.254.169.254', false],
    ['local,169.254.169.254', '169.254.169.254', '169.254.169.254', true],
    ['local,169.254.169.254', 'x.example', '::ffff:169.254.169.254', true],
    ['local,169.254.169.254', 'x.example', '169.254.0.1', false],
  ])('%s: %s at %s → %s', (policy, host, address, allowed) => {
    expect(checkAddress(parseTargetPolicy(policy), host, address) === null).toBe(allowed);
  });

  it('says what the address is and what the policy allows', () => {
    const refusal = checkAddress(parseTargetPolicy('public, hooks.internal'), 'meta.example', '169.254.169.254');
    expect(refusal).toEqual({
      host: 'meta.example',
      address: '169.254.169.254',
      range: 'link-local',
      policy: 'public,hooks.internal',
      message:
        'meta.example (169.254.169.254) is a link-local address, and the webhook target policy "public,hooks.internal" allows public addresses and hooks.internal',
    });
  });
});

describe('parseTargetPolicy', () => {
  it.each([
    ['', 'the policy is empty'],
    [' , ', 'the policy is empty'],
    ['locals', '"locals" is neither a preset'],
    ['10.0.0.0/33', '"10.0.0.0/33": the prefix length must be a whole number from 0 to 32'],
    ['fd00::/200', 'from 0 to 128'],
    ['10.0.0.0/x', 'the prefix length'],
    ['10.0.0.300', 'is neither a preset'],
    ['http://hooks.internal', 'is neither a preset'],
    ['hooks_internal', 'is neither a preset'],
    ['*', 'is neither a preset'],
  ])('refuses %j', (text, message) => {
    expect(() => parseTargetPolicy(text)).toThrow(message);
  });

  it('keeps the terms as written, trimmed', () => {
    expect(parseTargetPolicy(' public , 10.0.0.0/8 ,Hooks.Internal').text).toBe('public,10.0.0.0/8,Hooks.Internal');
  });
});

describe('selfCall', () => {
  const on = (address: string) => new Set([{ address, port: 4010 }]);
  it.each<[string, string, number, boolean]>([
    // svc on 127.0.0.1: every spelling of loopback and of "this host" at its port, and no other port.
    ['127.0.0.1', '127.0.0.1', 4010, true],
    ['127.0.0.1', '127.0.0.1', 4011, false],
    ['127.0.0.1', '127.0.0.2', 4010, true],
    ['127.0.0.1', '::1', 4010, true],
    ['127.0.0.1', '::ffff:127.0.0.1', 4010, true],
    ['127.0.0.1', '::ffff:7f00:1', 4010, true],
    ['127.0.0.1', '0:0:0:0:0:ffff:7f00:1', 4010, true],
    ['127.0.0.1', '0.0.0.0', 4010, true],
    ['127.0.0.1', '::', 4010, true],
    ['127.0.0.1', '10.0.0.9', 4010, false],
    ['127.0.0.1', '93.184.215.14', 4010, false],
    // NAT64 goes out through the translator: not this host.
    ['127.0.0.1', '64:ff9b::7f00:1', 4010, false],
    // svc on ::1: loopback is one place.
    ['::1', '127.0.0.1', 4010, true],
    ['::1', '0:0:0:0:0:0:0:1', 4010, true],
    // svc on one address of a network: that address only.
    ['192.168.7.5', '192.168.7.5', 4010, true],
    ['192.168.7.5', '::ffff:192.168.7.5', 4010, true],
    ['192.168.7.5', '127.0.0.1', 4010, false],
    ['192.168.7.5', '192.168.7.6', 4010, false],
    // svc on every address: loopback and "this host", at its port.
    ['0.0.0.0', '127.0.0.1', 4010, true],
    ['0.0.0.0', '::1', 4010, true],
    ['::', '127.0.0.1', 4010, true],
    ['::', '0.0.0.0', 4010, true],
    ['0.0.0.0', '93.184.215.14', 4010, false],
    ['0.0.0.0', '127.0.0.1', 4011, false],
  ])('svc on %s:4010, a target at %s:%i reaches it: %s', (listener, address, port, reaches) => {
    expect(selfCall(on(listener), address, address, port) !== null).toBe(reaches);
  });

  it('counts every address of the host when svc listens on all of them', () => {
    const addresses = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .map((entry) => entry.address);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) {
      expect(selfCall(on('0.0.0.0'), address, address, 4010), address).not.toBeNull();
      expect(selfCall(on('0.0.0.0'), address, address, 4011), address).toBeNull();
    }
  });

  it('refuses nothing when svc listens nowhere (the in-process app)', () => {
    expect(selfCall(new Set(), '127.0.0.1', '127.0.0.1', 4010)).toBeNull();
  });

  it('says where the URL goes, where svc listens and where the rule is written', () => {
    const refusal = selfCall(on('0.0.0.0'), 'self.example.test', '127.0.0.1', 4010);
    expect(refusal?.message).toBe(
      'the URL reaches svc itself (self.example.test at 127.0.0.1:4010, where svc listens on 0.0.0.0:4010); svc never calls itself, whatever the webhook target policy, see docs/webhook-targets.md#svc-never-calls-itself',
    );
    expect(selfCall(on('::1'), '::1', '::1', 4010)?.message).toContain('(the URL reaches svc itself ([::1]:4010);'.slice(1));
  });
});
