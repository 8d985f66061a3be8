# wl.pl - perl workload: regex-heavy text processing on generated log data.
# Usage: perl wl.pl ROUNDS
# Each round generates syslog/HTTP-like lines with our own LCG (no rand(),
# so PERL_HASH_SEED and srand do not matter for the data), parses them with
# regular expressions, aggregates in nested hashes, sorts, formats reports
# with sprintf, expands a small template language with s///e, and runs a
# tiny stack-machine interpreter.  Prints one checksum line per round.
use strict;
use warnings;

my $state = 20240601;
sub rnd { my ($n) = @_; $state = ($state * 1103515245 + 12345) % 2147483648; return int($state / 65536) % $n; }

my @syl = qw(ka ri to me su lo an be ch de fi go hu ix ol pra str);
my @words = map { my $k = 1 + rnd(3); join('', map { $syl[rnd(scalar @syl)] } 1 .. $k) } 1 .. 1500;
my @methods = qw(GET GET GET POST PUT DELETE HEAD);
my @codes = (200, 200, 200, 200, 301, 304, 404, 500);

sub gen_lines {
    my ($n) = @_;
    my @lines;
    for my $i (1 .. $n) {
        my $ip = join('.', 10, rnd(4), rnd(256), rnd(256));
        my $path = '/' . join('/', map { $words[rnd(200)] } 1 .. 1 + rnd(3));
        $path .= '?id=' . rnd(5000) if rnd(3) == 0;
        my $t = 1700000000 + $i * 3 + rnd(3);
        push @lines, sprintf('%s - - [%d] "%s %s HTTP/1.1" %d %d "%s"',
            $ip, $t, $methods[rnd(scalar @methods)], $path, $codes[rnd(scalar @codes)],
            rnd(100000), $words[rnd(scalar @words)] . '/' . (1 + rnd(9)) . '.' . rnd(10));
    }
    return \@lines;
}

sub analyse {
    my ($lines) = @_;
    my (%by_code, %by_path, %agents, %ips, $bytes);
    for my $l (@$lines) {
        next unless $l =~ m{^(\d+\.\d+\.\d+\.\d+) - - \[(\d+)\] "(\w+) ([^ ?"]+)(?:\?id=(\d+))? HTTP/1\.1" (\d{3}) (\d+) "([^"]*)"$};
        my ($ip, $t, $m, $p, $id, $code, $sz, $agent) = ($1, $2, $3, $4, $5, $6, $7, $8);
        $by_code{$code}{$m}++;
        my @parts = split m{/}, $p;
        $by_path{$parts[1]}{hits}++;
        $by_path{$parts[1]}{bytes} += $sz;
        $bytes += $sz;
        (my $a = $agent) =~ s{/(\d+)\.(\d+)$}{ v$1}; 
        $agents{lc $a}++;
        $ips{$ip} = $t if !exists $ips{$ip} || $ips{$ip} < $t;
        $by_path{$parts[1]}{ids}{$id} = 1 if defined $id;
    }
    my @top = (sort { $by_path{$b}{hits} <=> $by_path{$a}{hits} || $a cmp $b } keys %by_path)[0 .. 9];
    my $report = '';
    for my $k (@top) {
        $report .= sprintf("%-12s %6d %10d %4d\n", $k, $by_path{$k}{hits}, $by_path{$k}{bytes},
                           scalar keys %{ $by_path{$k}{ids} || {} });
    }
    for my $c (sort keys %by_code) {
        $report .= join(',', $c, map { "$_=$by_code{$c}{$_}" } sort keys %{ $by_code{$c} }) . "\n";
    }
    my @ag = sort { $agents{$b} <=> $agents{$a} || $a cmp $b } keys %agents;
    $report .= "agents " . join(' ', @ag[0 .. 4]) . "\n";
    return ($report, $bytes, scalar keys %ips);
}

sub template {
    my ($tpl, $vars) = @_;
    $tpl =~ s/\{\{\s*(\w+)(?:\|(\w+))?\s*\}\}/my $v = $vars->{$1} \/\/ ''; $2 && $2 eq 'uc' ? uc $v : $2 && $2 eq 'len' ? length $v : $v/ge;
    return $tpl;
}

sub stack_vm {
    my ($limit) = @_;
    # program: sum of collatz lengths for 1..limit
    my @code = (
        [ 'push', 1 ], [ 'store', 'n' ], [ 'push', 0 ], [ 'store', 'sum' ],
        [ 'load', 'n' ], [ 'store', 'x' ],                                 # 4 outer
        [ 'load', 'x' ], [ 'push', 1 ], [ 'gt' ], [ 'jz', 23 ],             # 6 inner
        [ 'load', 'x' ], [ 'push', 2 ], [ 'mod' ], [ 'jz', 19 ],
        [ 'load', 'x' ], [ 'push', 3 ], [ 'mul' ], [ 'push', 1 ], [ 'add' ], # 14
        [ 'store', 'x' ], [ 'load', 'sum' ], [ 'push', 1 ], [ 'add' ],       # 19..22 (19 handled below)
        [ 'store', 'sum' ], [ 'jmp', 6 ],
    );
    # fix-up for even numbers: x = x / 2 placed after the program
    push @code, [ 'load', 'x' ], [ 'push', 2 ], [ 'div' ], [ 'jmp', 19 ];
    $code[13] = [ 'jz', 25 ];
    $code[9] = [ 'jz', 29 ];
    push @code, [ 'load', 'n' ], [ 'push', 1 ], [ 'add' ], [ 'store', 'n' ],   # 29
                [ 'load', 'n' ], [ 'push', $limit ], [ 'gt' ], [ 'jz', 4 ], [ 'halt' ];
    my (@st, %mem);
    my $pc = 0;
    my $steps = 0;
    while (1) {
        my ($op, $arg) = @{ $code[$pc++] };
        $steps++;
        if    ($op eq 'push')  { push @st, $arg }
        elsif ($op eq 'load')  { push @st, $mem{$arg} }
        elsif ($op eq 'store') { $mem{$arg} = pop @st }
        elsif ($op eq 'add')   { my $b = pop @st; $st[-1] += $b }
        elsif ($op eq 'mul')   { my $b = pop @st; $st[-1] *= $b }
        elsif ($op eq 'div')   { my $b = pop @st; $st[-1] = int($st[-1] / $b) }
        elsif ($op eq 'mod')   { my $b = pop @st; $st[-1] %= $b }
        elsif ($op eq 'gt')    { my $b = pop @st; $st[-1] = $st[-1] > $b ? 1 : 0 }
        elsif ($op eq 'jz')    { $pc = $arg if !pop @st }
        elsif ($op eq 'jmp')   { $pc = $arg }
        elsif ($op eq 'halt')  { last }
    }
    return "$mem{sum}/$steps";
}

my $rounds = $ARGV[0] // 1;
my $total = 0;
for my $r (0 .. $rounds - 1) {
    my $lines = gen_lines(2000);
    my ($report, $bytes, $nips) = analyse($lines);
    my $page = '';
    for my $line (split /\n/, $report) {
        my @f = split ' ', $line;
        $page .= template("<tr><td>{{ key|uc }}</td><td>{{ val }}</td><td>{{ key|len }}</td></tr>\n",
                          { key => $f[0], val => join(';', @f[1 .. $#f]) });
    }
    my $vm = stack_vm(100 + $r % 7);
    my $sum = 0;
    $sum = ($sum * 33 + ord) % 4294967291 for split //, $page;
    $total = ($total * 31 + $sum + $bytes + $nips) % 4294967291;
    printf "round %d %d %d %d %s\n", $r, $sum, $bytes, $nips, $vm;
}
print "total $total\n";
