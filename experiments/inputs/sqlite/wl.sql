-- wl.sql - sqlite workload: an order-processing database built and queried
-- in memory.  capture.sh substitutes @ROWS@ (number of orders) before the run.
-- Everything is generated inside SQL with a recursive CTE and an integer LCG
-- (no random(), whose seed comes from the OS), so the database content is the
-- same on every run.  Work: bulk inserts, index builds, joins, GROUP BY,
-- window functions, ORDER BY with LIMIT, LIKE/substr/printf string work,
-- UPDATE and DELETE with subqueries, and an integrity check.
PRAGMA temp_store = MEMORY;
PRAGMA cache_size = -65536;

CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, city TEXT, tier INTEGER);
CREATE TABLE product (id INTEGER PRIMARY KEY, title TEXT, category TEXT, price INTEGER);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, product INTEGER,
                     qty INTEGER, day INTEGER, note TEXT);

WITH RECURSIVE seq(i, r) AS (SELECT 1, 12345 UNION ALL
    SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM seq WHERE i < 2000)
INSERT INTO customer
SELECT i, 'cust' || printf('%05d', i) || substr('abcdefghijklmnop', 1 + r % 13, 3),
       'city' || (r / 7 % 97), r / 11 % 4 FROM seq;

WITH RECURSIVE seq(i, r) AS (SELECT 1, 777 UNION ALL
    SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM seq WHERE i < 500)
INSERT INTO product
SELECT i, 'item-' || hex(r % 65536) || '-' || i,
       substr('toolsfoodbooksgamesmusichomesportgarden', 1 + (r / 5 % 8) * 5, 5),
       100 + r % 9900 FROM seq;

WITH RECURSIVE seq(i, r) AS (SELECT 1, 4242 UNION ALL
    SELECT i + 1, (r * 1103515245 + 12345) % 2147483648 FROM seq WHERE i < @ROWS@)
INSERT INTO orders
SELECT i, 1 + r % 2000, 1 + (r / 2000) % 500, 1 + r / 3 % 9, i / 50,
       CASE WHEN r % 5 = 0 THEN 'gift wrap ' || (r % 17) WHEN r % 7 = 0 THEN 'express' ELSE NULL END
FROM seq;

CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_product_day ON orders(product, day);
CREATE INDEX customer_city ON customer(city);

-- revenue per city and category
SELECT c.city, p.category, count(*), sum(o.qty * p.price)
FROM orders o JOIN customer c ON c.id = o.customer JOIN product p ON p.id = o.product
GROUP BY c.city, p.category ORDER BY 4 DESC LIMIT 10;

-- best customers with a window function ranking inside each tier
SELECT * FROM (
  SELECT c.tier, c.name, sum(o.qty * p.price) AS spent,
         rank() OVER (PARTITION BY c.tier ORDER BY sum(o.qty * p.price) DESC) AS rk
  FROM orders o JOIN customer c ON c.id = o.customer JOIN product p ON p.id = o.product
  GROUP BY c.id) WHERE rk <= 3 ORDER BY tier, rk;

-- running totals per day (window frame) and a moving average
SELECT day, total, sum(total) OVER (ORDER BY day) AS running,
       avg(total) OVER (ORDER BY day ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS week
FROM (SELECT day, sum(qty) AS total FROM orders GROUP BY day)
ORDER BY day DESC LIMIT 5;

-- string work: LIKE scans, substr, upper, group_concat
SELECT count(*), max(length(note)) FROM orders WHERE note LIKE 'gift%1%';
SELECT p.category, group_concat(DISTINCT upper(substr(c.name, 10, 3)))
FROM orders o JOIN product p ON p.id = o.product JOIN customer c ON c.id = o.customer
WHERE o.qty > 7 AND p.price < 1000 GROUP BY p.category ORDER BY 1;

-- correlated subquery and EXISTS
SELECT count(*) FROM customer c
WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id AND o.qty = 9)
  AND (SELECT count(*) FROM orders o WHERE o.customer = c.id) > 3;

-- updates and deletes through the indexes
UPDATE product SET price = price * 11 / 10 WHERE category IN ('tools', 'games');
UPDATE orders SET qty = qty + 1 WHERE product IN (SELECT id FROM product WHERE price > 9000);
DELETE FROM orders WHERE note = 'express' AND day % 3 = 0;

-- sort-heavy query without an index
SELECT id, customer, qty * 31 % 101 AS k FROM orders ORDER BY k, customer DESC, id LIMIT 3;
SELECT count(DISTINCT customer * 1000 + product % 37) FROM orders;

PRAGMA integrity_check;
SELECT 'rows', count(*), total(qty) FROM orders;
