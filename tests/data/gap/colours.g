# A ring of six cells in three colours, turned by a rotation and a swap.
colours := [ "red", "red", "green", "green", "blue", "blue" ];
rot := (1,2,3,4,5,6);
swap := (1,2);
ring := Group(rot, swap);
