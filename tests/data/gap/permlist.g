# Generators as image lists.
a := PermList([2, 3, 1, 4, 5]);
b := PermList([1, 2, 4, 5, 3]);
G := GroupWithGenerators([a, b]);
